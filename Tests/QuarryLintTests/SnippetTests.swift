// The table of source snippets: Swift and Objective-C, single-line and
// multi-line literals, raw strings, escapes, `@"…"` concatenations — each
// with the exact findings (rule, line, column) it must produce, and a table
// of correct code that must produce none. Columns were counted by hand
// from the snippet text (1-based characters).
import QuarryLint
import QuarryModel
import Testing

struct Snippet: CustomStringConvertible, Sendable {
    var name: String
    var file: String
    var source: String
    var expected: [String]   // "QL001@1:50"
    var description: String { name }
}

let findingSnippets: [Snippet] = [
    Snippet(name: "swift escaped quotes", file: "a.swift",
            source: #"let p = NSPredicate(format: "name == \"Bob\" AND $ == 1")"#, expected: ["QL001@1:50"]),
    Snippet(name: "swift unicode escape", file: "a.swift",
            source: #"let p = NSPredicate(format: "name == 'caf\u{e9}' AND $ == 1")"#, expected: ["QL001@1:54"]),
    Snippet(name: "swift raw string", file: "a.swift",
            source: ##"let p = NSPredicate(format: #"name MATCHES "\\d+" AND $ == 1"#)"##, expected: ["QL001@1:55"]),
    // A raw string hands `\d` to NSPredicate, whose quoted strings have no such escape: the caret is on the backslash.
    Snippet(name: "swift raw string keeps backslashes", file: "a.swift",
            source: ##"let p = NSPredicate(format: #"name MATCHES "\d+""#)"##, expected: ["QL001@1:45"]),
    Snippet(name: "swift multi-line literal", file: "a.swift", source: """
        let p = NSPredicate(format: \"\"\"
            name == %@
              AND $ == 1
            \"\"\", "x")
        """, expected: ["QL001@3:11"]),
    Snippet(name: "swift multi-line with continuation", file: "a.swift", source: """
        let p = NSPredicate(format: \"\"\"
            name == %@ \\
            AND $ == 1
            \"\"\", "x")
        """, expected: ["QL001@3:9"]),
    Snippet(name: "swift interpolation is not constant", file: "a.swift",
            source: #"let p = NSPredicate(format: "name == \(name)")"#, expected: ["QL009@1:29"]),
    Snippet(name: "swift concatenated with a variable", file: "a.swift",
            source: #"let p = NSPredicate(format: "name == %@ AND " + extra, x)"#, expected: ["QL009@1:29"]),
    Snippet(name: "swift literal + literal is constant", file: "a.swift",
            source: #"let p = NSPredicate(format: "name == %@ " + "AND $ == 1", x)"#, expected: ["QL001@1:50"]),
    Snippet(name: "objc literal followed by a macro", file: "a.m",
            source: #"[NSPredicate predicateWithFormat:@"name == %@ AND " EXTRA_CONDITION, x];"#, expected: ["QL009@1:34"]),
    Snippet(name: "swift unterminated literal", file: "a.swift",
            source: "let p = NSPredicate(format: \"name == %@, x)\nlet q = 1", expected: ["QL010@1:29"]),
    Snippet(name: "swift missing argument", file: "a.swift",
            source: #"let p = NSPredicate(format: "name == %@ AND age > %d", "Bob")"#, expected: ["QL002@1:51"]),
    Snippet(name: "swift extra argument", file: "a.swift",
            source: #"let p = NSPredicate(format: "name == %@", "Bob", 3)"#, expected: ["QL002@1:50"]),
    Snippet(name: "swift %@ given an integer literal", file: "a.swift",
            source: #"let p = NSPredicate(format: "age == %@", 42)"#, expected: ["QL003@1:42"]),
    Snippet(name: "swift %K given a number", file: "a.swift",
            source: #"let p = NSPredicate(format: "%K == 1", 5)"#, expected: ["QL003@1:40"]),
    Snippet(name: "swift %d given a string", file: "a.swift",
            source: #"let p = NSPredicate(format: "age == %d", "42")"#, expected: ["QL003@1:42"]),
    Snippet(name: "swift argumentArray with too few elements", file: "c.swift",
            source: #"let p = NSPredicate(format: "age == %@ AND name == %@", argumentArray: [5])"#, expected: ["QL002@1:52"]),
    Snippet(name: "objc adjacent literals across lines", file: "a.m", source: """
        NSPredicate *p = [NSPredicate predicateWithFormat:@"name == %@ "
            @"AND $ == 1", name];
        """, expected: ["QL001@2:11"]),
    Snippet(name: "objc escaped quotes", file: "a.m",
            source: #"[NSPredicate predicateWithFormat:@"name == \"a\" AND $ == 1"];"#, expected: ["QL001@1:54"]),
    Snippet(name: "objc %@ given a bare int", file: "a.m",
            source: #"[NSPredicate predicateWithFormat:@"age == %@", 5];"#, expected: ["QL003@1:48"]),
    Snippet(name: "objc missing argument", file: "a.mm",
            source: #"[NSPredicate predicateWithFormat:@"a == %@ AND b == %@", x];"#, expected: ["QL002@1:53"]),
    Snippet(name: "swift custom selector predicate", file: "a.swift",
            source: #"let p = NSPredicate(format: "self isKindOfClass: %@", cls)"#, expected: ["QL008@1:35"]),
    // With the model: the entity comes from the code around the call.
    Snippet(name: "unknown key, NSFetchRequest<T>(entityName:)", file: "m.swift", source: """
        let request = NSFetchRequest<Employee>(entityName: "Employee")
        request.predicate = NSPredicate(format: "nmae == %@", name)
        """, expected: ["QL004@2:42"]),
    Snippet(name: "BEGINSWITH on a number, @FetchRequest(entity:)", file: "m.swift", source: """
        @FetchRequest(entity: Employee.entity(), sortDescriptors: [],
                      predicate: NSPredicate(format: "age BEGINSWITH '3'"))
        """, expected: ["QL005@2:47"]),
    Snippet(name: "to-many without ANY, T.fetchRequest()", file: "m.swift", source: """
        let r: NSFetchRequest<Department> = Department.fetchRequest()
        r.predicate = NSPredicate(format: "employees.name == %@", "Bob")
        """, expected: ["QL006@2:36"]),
    Snippet(name: "%K literal names no key, annotation", file: "m.swift", source: """
        // quarry-lint:entity Employee
        let p = NSPredicate(format: "%K == %@", "salry", x)
        """, expected: ["QL007@2:41"]),
    Snippet(name: "objc unknown entity name", file: "m.m", source: """
        NSFetchRequest *r = [NSFetchRequest fetchRequestWithEntityName:@"Employe"];
        r.predicate = [NSPredicate predicateWithFormat:@"name == %@", n];
        """, expected: ["QL011@1:64"]),
    Snippet(name: "objc setPredicate: and @avg of a string", file: "m.m", source: """
        NSFetchRequest *r = [[NSFetchRequest alloc] initWithEntityName:@"Department"];
        [r setPredicate:[NSPredicate predicateWithFormat:@"employees.@avg.name > 3"]];
        """, expected: ["QL005@2:67"]),
    Snippet(name: "objc request.entity = entityForName:", file: "m.m", source: """
        NSFetchRequest *request = [[NSFetchRequest alloc] init];
        request.entity = [NSEntityDescription entityForName:@"Employee" inManagedObjectContext:context];
        request.predicate = [NSPredicate predicateWithFormat:@"salry > 5"];
        """, expected: ["QL004@3:56"]),
    Snippet(name: "assignment after another statement's let", file: "m.swift", source: """
        let other: Int = 5
        request = Department.fetchRequest()
        request.predicate = NSPredicate(format: "agee > 3")
        """, expected: ["QL004@3:42"]),
    Snippet(name: "FUNCTION and transient attribute", file: "m.swift", source: """
        // quarry-lint:entity Employee
        let p = NSPredicate(format: "FUNCTION(name, 'uppercaseString') == 'BOB' OR displayName == 'x'")
        """, expected: ["QL008@2:30", "QL008@2:76"]),
    Snippet(name: "block predicate on a fetch request", file: "m.swift", source: """
        let request = NSFetchRequest<Employee>(entityName: "Employee")
        request.predicate = NSPredicate { _, _ in true }
        """, expected: ["QL008@2:21"]),
    Snippet(name: "MATCHES across a to-many", file: "m.swift", source: """
        let r = NSFetchRequest<Department>(entityName: "Department")
        r.predicate = NSPredicate(format: "ANY employees.name MATCHES %@", "B.*")
        """, expected: ["QL008@2:40"]),
    Snippet(name: "parameter typed NSFetchRequest<T>", file: "m.swift",
            source: #"func c(r: NSFetchRequest<Employee>) { r.predicate = NSPredicate(format: "agee > 3") }"#, expected: ["QL004@1:74"]),
    Snippet(name: "compound predicate part", file: "m.swift", source: """
        let r = NSFetchRequest<Employee>(entityName: "Employee")
        r.predicate = NSCompoundPredicate(andPredicateWithSubpredicates: [NSPredicate(format: "agee > 3")])
        """, expected: ["QL004@2:88"]),
    Snippet(name: "a key path across two to-many relationships", file: "m.swift", source: """
        let r = NSFetchRequest<Department>(entityName: "Department")
        r.predicate = NSPredicate(format: "ANY employees.department.employees.name == %@", n)
        """, expected: ["QL008@2:40"]),
    // Style hints.
    Snippet(name: "LIKE without a wildcard", file: "s.swift",
            source: #"let p = NSPredicate(format: "name LIKE[c] 'bob'")"#, expected: ["QL012@1:43"]),
    Snippet(name: "LIKE given a literal without a wildcard", file: "s.swift",
            source: #"let p = NSPredicate(format: "name LIKE %@", "bob")"#, expected: ["QL012@1:40"]),
    Snippet(name: "LIKE without a wildcard inside a SUBQUERY", file: "s.swift",
            source: #"let p = NSPredicate(format: "SUBQUERY(items, $i, $i.name LIKE 'x').@count > 0")"#, expected: ["QL012@1:63"]),
    Snippet(name: "==[cd] on an indexed attribute", file: "s.swift", source: """
        let r = NSFetchRequest<Department>(entityName: "Department")
        r.predicate = NSPredicate(format: "name ==[cd] %@", n)
        """, expected: ["QL013@2:36"]),
    Snippet(name: "BEGINSWITH[c] on an indexed attribute through a to-one", file: "s.swift", source: """
        let r = NSFetchRequest<Employee>(entityName: "Employee")
        r.predicate = NSPredicate(format: "department.name BEGINSWITH[c] 'R'")
        """, expected: ["QL013@2:36"]),
    Snippet(name: "CONTAINS on a to-many given a string", file: "s.swift", source: """
        let r = NSFetchRequest<Department>(entityName: "Department")
        r.predicate = NSPredicate(format: "employees CONTAINS 'Bob'")
        """, expected: ["QL014@2:36"]),
    Snippet(name: "CONTAINS on a to-many given a string literal argument", file: "s.swift", source: """
        let r = NSFetchRequest<Department>(entityName: "Department")
        r.predicate = NSPredicate(format: "employees CONTAINS %@", "Bob")
        """, expected: ["QL014@2:36"]),
]

let cleanSnippets: [Snippet] = [
    Snippet(name: "LIKE with wildcards, or given a variable", file: "c.swift",
            source: #"let p = NSPredicate(format: "name LIKE[c] 'b*' OR name LIKE 'a?c' OR name LIKE %@ OR name LIKE 'a\\\\*'", pattern)"#,
            expected: []),
    Snippet(name: "style: ==[n], ==, an unindexed ==[c], CONTAINS given an object", file: "c.swift", source: """
        let r = NSFetchRequest<Department>(entityName: "Department")
        r.predicate = NSPredicate(format: "name ==[n] %@ OR name == %@ OR employees CONTAINS %@ OR ANY employees.name ==[c] 'x'", a, b, e)
        let s = NSFetchRequest<Employee>(entityName: "Employee")
        s.predicate = NSPredicate(format: "name ==[c] %@ AND name CONTAINS[c] 'x'", n)
        """, expected: []),
    Snippet(name: "plain swift", file: "c.swift", source: #"let p = NSPredicate(format: "name == %@ AND age > %d", name, 3)"#, expected: []),
    Snippet(name: "quoted specifier is literal text", file: "c.swift", source: #"let p = NSPredicate(format: "name == '%@'")"#, expected: []),
    Snippet(name: "positional specifier used twice", file: "c.swift",
            source: #"let p = NSPredicate(format: "%1$@ == name OR %1$@ == email", x)"#, expected: []),
    Snippet(name: "objc argumentArray", file: "c.m",
            source: #"[NSPredicate predicateWithFormat:@"name == %@ AND age > %@" argumentArray:@[n, @3]];"#, expected: []),
    Snippet(name: "swift argumentArray", file: "c.swift",
            source: #"let p = NSPredicate(format: "name == %@", argumentArray: [n])"#, expected: []),
    Snippet(name: "argumentArray numbers are bridged objects", file: "c.swift",
            source: #"let p = NSPredicate(format: "age == %@ AND active == %@", argumentArray: [5, true])"#, expected: []),
    Snippet(name: "va_list arguments are not counted", file: "c.m",
            source: #"[NSPredicate predicateWithFormat:@"a == %@ AND b == %@" arguments:args];"#, expected: []),
    Snippet(name: "call in a comment", file: "c.swift", source: """
        // NSPredicate(format: "bad ==")
        /* NSPredicate(format: "bad ==") /* nested */ */
        """, expected: []),
    Snippet(name: "call in a string", file: "c.swift", source: #"let s = "NSPredicate(format: \"x ==\")""#, expected: []),
    Snippet(name: "non-literal format", file: "c.swift", source: #"let p = NSPredicate(format: template, x)"#, expected: []),
    Snippet(name: "disable on the line", file: "c.swift",
            source: #"let p = NSPredicate(format: "name == %@") // quarry-lint:disable QL002"#, expected: []),
    Snippet(name: "disable-next-line, all rules", file: "c.swift", source: """
        // quarry-lint:disable-next-line
        let p = NSPredicate(format: "name == \\(x)")
        """, expected: []),
    Snippet(name: "disable-file", file: "c.m", source: """
        // quarry-lint:disable-file QL003
        [NSPredicate predicateWithFormat:@"age == %@", 5];
        """, expected: []),
    Snippet(name: "expression", file: "c.swift", source: #"let e = NSExpression(format: "salary * 2")"#, expected: []),
    Snippet(name: "model: ANY, aggregates, SUBQUERY, #keyPath", file: "c.swift", source: """
        let r = NSFetchRequest<Department>(entityName: "Department")
        r.predicate = NSPredicate(format: "ANY employees.name == %@ AND employees.@count > 3 AND employees.@avg.salary > 10", n)
        let s: NSFetchRequest<Department> = Department.fetchRequest()
        s.predicate = NSPredicate(format: "SUBQUERY(employees, $e, $e.age > 30 AND $e.department.name == 'x').@count > 0")
        let t = NSFetchRequest<Employee>(entityName: "Employee")
        t.predicate = NSPredicate(format: "%K == %@ AND department.name BEGINSWITH 'R'", #keyPath(Employee.name), n)
        """, expected: []),
    Snippet(name: "model: @FetchRequest with FetchedResults<T>", file: "c.swift", source: """
        @FetchRequest(sortDescriptors: [], predicate: NSPredicate(format: "age > 30 AND startDate < %@", now as NSDate))
        var items: FetchedResults<Employee>
        """, expected: []),
    Snippet(name: "model: objc, entity by class name not in the model", file: "c.m", source: """
        NSFetchRequest *r = [CDThing fetchRequest];
        r.predicate = [NSPredicate predicateWithFormat:@"whatever == 1"];
        """, expected: []),
    Snippet(name: "model: a variable from another function is out of scope", file: "c.swift", source: """
        func a() { let request = NSFetchRequest<Department>(entityName: "Department"); _ = request }
        func b(request: NSFetchRequest<Employee>) {
            request.predicate = NSPredicate(format: "age > 30")
        }
        """, expected: []),
    Snippet(name: "model: an earlier statement's let is not the request", file: "c.swift", source: """
        let other: Int = 5
        request = Department.fetchRequest()
        let r = NSFetchRequest<Employee>(entityName: "Employee")
        other.predicate = NSPredicate(format: "agee > 3")
        request.predicate = NSPredicate(format: "budget > 3")
        """, expected: []),
    Snippet(name: "block predicate filtering an array", file: "c.swift",
            source: #"let xs = items.filter { NSPredicate { _, _ in true }.evaluate(with: $0) }"#, expected: []),
]

private func rendered(_ findings: [Finding]) -> [String] {
    findings.map { "\($0.rule.rawValue)@\($0.line):\($0.column)" }
}

@Suite struct LintSnippetTests {
    @Test(arguments: findingSnippets)
    func findings(_ s: Snippet) {
        let findings = Linter.lint(source: s.source, path: s.file, models: [TestModel.model])
        #expect(rendered(findings) == s.expected, "\(findings.map { "\($0.rule.rawValue) \($0.line):\($0.column) \($0.message)" })")
    }

    @Test(arguments: cleanSnippets)
    func clean(_ s: Snippet) {
        let findings = Linter.lint(source: s.source, path: s.file, models: [TestModel.model])
        #expect(findings.isEmpty, "\(findings.map { "\($0.rule.rawValue) \($0.line):\($0.column) \($0.message)" })")
    }

    /// Every finding that has a fix has a hint; messages name the problem.
    @Test func hintsAndMessages() {
        let findings = Linter.lint(source: """
            let request = NSFetchRequest<Employee>(entityName: "Employee")
            request.predicate = NSPredicate(format: "nmae == %@", name)
            """, path: "h.swift", models: [TestModel.model])
        #expect(findings.count == 1)
        #expect(findings.first?.message == "entity Employee has no property 'nmae'")
        #expect(findings.first?.hints == ["did you mean 'name'?"])
        #expect(findings.first?.severity == .error)
    }
}
