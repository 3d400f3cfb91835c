// Every validation error, from YAML and from Core Data XML: the kind, a
// piece of the message, the line, and the column (given as the text that
// must start at that column, so the rows stay readable), and the "did you
// mean" suggestion where a name is unknown. Rows marked `isWarning` are
// text Core Data's model compiler accepts: the XML reader reads them and
// places a warning exactly where the error would have been.
import Testing
@testable import QuarryModel

struct ErrorCase: Sendable, CustomStringConvertible {
    enum Format: Sendable { case yaml, xml, json }
    var name: String
    var format: Format
    var source: String
    var kind: ModelErrorKind
    var message: String
    var line: Int
    /// The text found at the reported column on that line; nil when the
    /// error has no column.
    var at: String?
    var suggestion: String? = nil
    /// Read with a warning (see ModelWarning) rather than refused.
    var isWarning = false
    var lineEnding = "\n"
    var description: String { name }

    var text: String {
        (format == .xml ? Fixtures.xml(source) : source).replacingOccurrences(of: "\n", with: lineEnding)
    }
}

let yamlErrorCases: [ErrorCase] = [
    ErrorCase(name: "unknown destination", format: .yaml, source: """
        entities:
          Department: {}
          Employee:
            relationships:
              department: { to: Departmnt }
        """, kind: .unknownEntity, message: "relationship 'department' of Employee: no entity named 'Departmnt'",
        line: 5, at: "Departmnt", suggestion: "Department"),
    ErrorCase(name: "unknown inverse", format: .yaml, source: """
        entities:
          Department:
            relationships:
              employees: { to: Employee, many: true, inverse: departmnt }
          Employee:
            relationships:
              department: Department
        """, kind: .unknownProperty, message: "its inverse 'departmnt' is not a relationship of Employee",
        line: 4, at: "departmnt", suggestion: "department"),
    ErrorCase(name: "inverse leads elsewhere", format: .yaml, source: """
        entities:
          A:
            relationships:
              b: { to: B, inverse: a }
          B:
            relationships:
              a: { to: C, inverse: b }
          C:
            relationships:
              b: B
        """, kind: .inverseMismatch, message: "its inverse B.a leads to C, not A", line: 4, at: "a }"),
    ErrorCase(name: "inverses that do not name each other", format: .yaml, source: """
        entities:
          A:
            relationships:
              b: { to: B, inverse: a }
              c: { to: B, inverse: a }
          B:
            relationships:
              a: A
        """, kind: .inverseMismatch, message: "relationship 'c' of A: its inverse B.a names 'b' as its inverse",
        line: 5, at: "a }"),
    ErrorCase(name: "missing parent", format: .yaml, source: """
        entities:
          Employee:
            parent: Persn
          Person: {}
        """, kind: .unknownEntity, message: "parent of Employee: no entity named 'Persn'", line: 3, at: "Persn",
        suggestion: "Person"),
    ErrorCase(name: "inheritance cycle", format: .yaml, source: """
        entities:
          A: { parent: B }
          B: { parent: C }
          C: { parent: A }
        """, kind: .inheritanceCycle, message: "A → B → C → A", line: 2, at: "B }"),
    ErrorCase(name: "entity defined twice", format: .yaml, source: """
        entities:
          A: {}
          B: {}
          A: {}
        """, kind: .duplicateName, message: "'A' appears twice in entities", line: 4, at: "A: {}"),
    ErrorCase(name: "property repeats an inherited one", format: .yaml, source: """
        entities:
          Person:
            attributes:
              name: string
          Employee:
            parent: Person
            attributes:
              name: string
        """, kind: .duplicateName, message: "Employee.name repeats the property 'name' it inherits from Person",
        line: 8, at: "name: string"),
    ErrorCase(name: "attribute and relationship with one name", format: .yaml, source: """
        entities:
          A:
            attributes:
              b: string
            relationships:
              b: A
        """, kind: .duplicateName, message: "A has two properties named 'b'", line: 6, at: "b: A"),
    ErrorCase(name: "integer default out of range", format: .yaml, source: """
        entities:
          E:
            attributes:
              salary: { type: integer16, default: 70000 }
        """, kind: .invalidValue, message: "default value '70000' is not an integer from -32768 to 32767",
        line: 4, at: "70000"),
    ErrorCase(name: "boolean default", format: .yaml, source: """
        entities:
          E:
            attributes:
              active: { type: boolean, default: maybe }
        """, kind: .invalidValue, message: "default value 'maybe' is not YES or NO", line: 4, at: "maybe"),
    ErrorCase(name: "date default", format: .yaml, source: """
        entities:
          E:
            attributes:
              when: { type: date, default: yesterday }
        """, kind: .invalidValue, message: "is not a date", line: 4, at: "yesterday"),
    ErrorCase(name: "bounds on a boolean", format: .yaml, source: """
        entities:
          E:
            attributes:
              flag: { type: boolean, max: 1 }
        """, kind: .invalidValue, message: "a Boolean attribute has no maximum", line: 4, at: "max: 1"),
    ErrorCase(name: "negative string length", format: .yaml, source: """
        entities:
          E:
            attributes:
              code: { type: string, min: -1 }
        """, kind: .invalidValue, message: "minimum '-1' is not a length", line: 4, at: "-1"),
    ErrorCase(name: "minimum above maximum", format: .yaml, source: """
        entities:
          E:
            attributes:
              age: { type: integer16, min: 120, max: 16 }
        """, kind: .invalidRange, message: "minimum 120 is greater than maximum 16", line: 4, at: "120"),
    ErrorCase(name: "relationship counts", format: .yaml, source: """
        entities:
          E:
            relationships:
              r: { to: E, many: true, min: 5, max: 2 }
        """, kind: .invalidRange, message: "minimum count 5 is greater than maximum count 2", line: 4, at: "5,"),
    ErrorCase(name: "invalid regular expression", format: .yaml, source: """
        entities:
          E:
            attributes:
              email: { type: string, regex: '[a-' }
        """, kind: .invalidRegularExpression, message: "'[a-' is not a valid regular expression", line: 4, at: "'[a-'"),
    ErrorCase(name: "index names an unknown property", format: .yaml, source: """
        entities:
          E:
            attributes:
              name: string
            indexes: [nmae]
        """, kind: .unknownProperty, message: "index 'byNmaeIndex' of E: no property named 'nmae'", line: 5, at: "nmae",
        suggestion: "name"),
    ErrorCase(name: "index on a to-many relationship", format: .yaml, source: """
        entities:
          E:
            relationships:
              children: [E]
            indexes:
              byChildren: [children]
        """, kind: .structure, message: "'children' is a to-many relationship", line: 6, at: "children]"),
    ErrorCase(name: "constraint names an unknown property", format: .yaml, source: """
        entities:
          E:
            attributes: { name: string, email: string }
            unique: [[name, emial]]
        """, kind: .unknownProperty, message: "uniqueness constraint of E: no property named 'emial'", line: 4,
        at: "emial", suggestion: "email"),
    ErrorCase(name: "constraint on an inherited property is fine, unknown is not", format: .yaml, source: """
        entities:
          Person:
            attributes: { name: string }
          Employee:
            parent: Person
            unique: [name, badge]
        """, kind: .unknownProperty, message: "no property named 'badge'", line: 6, at: "badge"),
    ErrorCase(name: "fetch request for an unknown entity", format: .yaml, source: """
        entities:
          Employee: {}
        fetchRequests:
          all: { entity: Employe }
        """, kind: .unknownEntity, message: "fetch request 'all': no entity named 'Employe'", line: 4, at: "Employe",
        suggestion: "Employee"),
    ErrorCase(name: "fetch request predicate does not parse", format: .yaml, source: """
        entities:
          Employee:
            attributes: { salary: integer64 }
        fetchRequests:
          bad: { entity: Employee, predicate: "salary > AND x == 1" }
        """, kind: .invalidPredicate, message: "fetch request 'bad': the predicate does not parse", line: 5, at: "AND x"),
    ErrorCase(name: "plain predicate does not parse", format: .yaml, source: """
        entities:
          Employee: {}
        fetchRequests:
          bad:
            entity: Employee
            predicate: name BEGINSWITH
        """, kind: .invalidPredicate, message: "the predicate does not parse", line: 6, at: nil),
    ErrorCase(name: "fetched property for an unknown entity", format: .yaml, source: """
        entities:
          Employee:
            fetchedProperties:
              peers: { entity: Employes, predicate: "department == $FETCH_SOURCE.department" }
        """, kind: .unknownEntity, message: "fetched property 'peers' of Employee: no entity named 'Employes'", line: 4,
        at: "Employes", suggestion: "Employee"),
    ErrorCase(name: "derived expression does not parse", format: .yaml, source: """
        entities:
          E:
            attributes:
              n: { type: integer64, derived: "count:(" }
        """, kind: .invalidPredicate, message: "derivation of attribute 'n' of E: the expression does not parse", line: 4, at: nil),
    ErrorCase(name: "configuration with an unknown entity", format: .yaml, source: """
        entities:
          Employee: {}
        configurations:
          Local: [Employee, Departmen]
        """, kind: .unknownEntity, message: "configuration 'Local': no entity named 'Departmen'", line: 4, at: "Departmen"),
    ErrorCase(name: "unknown key", format: .yaml, source: """
        entities:
          E:
            attributes:
              name: { type: string, optinal: true }
        """, kind: .structure, message: "unknown key 'optinal' in attribute 'name' of E", line: 4, at: "optinal",
        suggestion: "optional"),
    ErrorCase(name: "unknown top-level key", format: .yaml, source: """
        entitys:
          E: {}
        """, kind: .structure, message: "unknown key 'entitys' in the model file", line: 1, at: "entitys",
        suggestion: "entities"),
    ErrorCase(name: "no entities", format: .yaml, source: """
        fetchRequests: {}
        """, kind: .structure, message: "has no 'entities:'", line: 1, at: "fetchRequests"),
    ErrorCase(name: "unknown attribute type", format: .yaml, source: """
        entities:
          E:
            attributes:
              name: strng
        """, kind: .structure, message: "unknown attribute type 'strng'", line: 4, at: "strng", suggestion: "string"),
    ErrorCase(name: "attribute without a type", format: .yaml, source: """
        entities:
          E:
            attributes:
              name: { optional: false }
        """, kind: .structure, message: "attribute 'name' of E has no 'type:'", line: 4, at: "{ optional"),
    ErrorCase(name: "unknown delete rule", format: .yaml, source: """
        entities:
          E:
            relationships:
              r: { to: E, delete: cascde }
        """, kind: .structure, message: "unknown delete rule 'cascde'", line: 4, at: "cascde", suggestion: "cascade"),
    ErrorCase(name: "ordered to-one", format: .yaml, source: """
        entities:
          E:
            relationships:
              r: { to: E, ordered: true }
        """, kind: .structure, message: "only to-many relationships can be ordered", line: 4, at: "ordered"),
    ErrorCase(name: "relationship without destination", format: .yaml, source: """
        entities:
          E:
            relationships:
              r: { many: true }
        """, kind: .structure, message: "has no 'to:'", line: 4, at: "{ many"),
    ErrorCase(name: "entity is not a mapping", format: .yaml, source: """
        entities:
          E: [a, b]
        """, kind: .structure, message: "entity E should be a mapping", line: 2, at: "[a, b]"),
    ErrorCase(name: "boolean option", format: .yaml, source: """
        entities:
          E:
            abstract: sometimes
        """, kind: .structure, message: "abstract should be true or false, found 'sometimes'", line: 3, at: "sometimes"),
    ErrorCase(name: "JSON model with an unknown destination", format: .json, source: """
        {
        \t"entities": {
        \t\t"A": { "relationships": { "b": { "to": "Bee" } } },
        \t\t"Bea": {}
        \t}
        }
        """, kind: .unknownEntity, message: "no entity named 'Bee'", line: 3, at: "\"Bee\"", suggestion: "Bea"),
]

let xmlErrorCases: [ErrorCase] = [
    ErrorCase(name: "unknown destination", format: .xml, source: """
            <entity name="A" representedClassName="A" syncable="YES">
                <relationship name="b" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Bee"/>
            </entity>
            <entity name="Bea" representedClassName="Bea" syncable="YES"/>
        """, kind: .unknownEntity, message: "relationship 'b' of A: no entity named 'Bee'", line: 4, at: "Bee\"",
        suggestion: "Bea"),
    ErrorCase(name: "inverse leads elsewhere", format: .xml, source: """
            <entity name="A">
                <relationship name="b" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="B" inverseName="a" inverseEntity="B"/>
            </entity>
            <entity name="B">
                <relationship name="a" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="B" inverseName="a" inverseEntity="B"/>
            </entity>
        """, kind: .inverseMismatch, message: "its inverse B.a leads to B, not A", line: 4, at: "a\" inverseEntity"),
    ErrorCase(name: "inverse entity differs from destination", format: .xml, source: """
            <entity name="A">
                <relationship name="b" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="A" inverseName="b" inverseEntity="C"/>
            </entity>
        """, kind: .inverseMismatch, message: "inverseEntity 'C' differs from destinationEntity 'A'", line: 4, at: "C\"/>"),
    ErrorCase(name: "missing inverse", format: .xml, source: """
            <entity name="A">
                <relationship name="b" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="A" inverseName="c" inverseEntity="A"/>
            </entity>
        """, kind: .unknownProperty, message: "its inverse 'c' is not a relationship of A", line: 4, at: "c\" inverseEntity"),
    ErrorCase(name: "integer default", format: .xml, source: """
            <entity name="E">
                <attribute name="count" optional="YES" attributeType="Integer 32" defaultValueString="abc" usesScalarValueType="YES"/>
            </entity>
        """, kind: .invalidValue, message: "attribute 'count' of E: default value 'abc' is ignored: not an integer", line: 4, at: "abc\"",
        isWarning: true),
    ErrorCase(name: "boolean default", format: .xml, source: """
            <entity name="E">
                <attribute name="flag" optional="YES" attributeType="Boolean" defaultValueString="MAYBE" usesScalarValueType="YES"/>
            </entity>
        """, kind: .invalidValue, message: "default value 'MAYBE' read as NO", line: 4, at: "MAYBE", isWarning: true),
    ErrorCase(name: "default in a multi-line tag", format: .xml, source: """
            <entity name="E">
                <attribute name="a"
                           optional="YES"
                           attributeType="Integer 16"
                           defaultValueString="x"/>
            </entity>
        """, kind: .invalidValue, message: "default value 'x' is ignored", line: 7, at: "x\"/>", isWarning: true),
    ErrorCase(name: "predicate with entities does not parse", format: .xml, source: """
            <entity name="Employee">
                <attribute name="salary" optional="YES" attributeType="Integer 64" usesScalarValueType="YES"/>
            </entity>
            <fetchRequest name="bad" entity="Employee" predicateString="salary &gt; AND name == &quot;x&quot;"/>
        """, kind: .invalidPredicate, message: "fetch request 'bad': the predicate does not parse", line: 6, at: "AND name"),
    ErrorCase(name: "fetched property predicate does not parse", format: .xml, source: """
            <entity name="Employee">
                <fetchedProperty name="peers" optional="YES">
                    <fetchRequest name="fetchedPropertyFetchRequest" entity="Employee" predicateString="name ==="/>
                </fetchedProperty>
            </entity>
        """, kind: .invalidPredicate, message: "fetched property 'peers' of Employee: the predicate does not parse", line: 5, at: nil),
    ErrorCase(name: "missing parent", format: .xml, source: """
            <entity name="Employee" parentEntity="Persn"/>
            <entity name="Person" isAbstract="YES"/>
        """, kind: .unknownEntity, message: "parent of Employee: no entity named 'Persn'", line: 3, at: "Persn",
        suggestion: "Person"),
    ErrorCase(name: "inheritance cycle", format: .xml, source: """
            <entity name="A" parentEntity="B"/>
            <entity name="B" parentEntity="A"/>
        """, kind: .inheritanceCycle, message: "A → B → A", line: 3, at: "B\"/>"),
    ErrorCase(name: "unknown attribute type", format: .xml, source: """
            <entity name="E">
                <attribute name="a" optional="YES" attributeType="Strin"/>
            </entity>
        """, kind: .structure, message: "unknown attributeType 'Strin'", line: 4, at: "Strin", suggestion: "String"),
    ErrorCase(name: "composite attribute", format: .xml, source: """
            <entity name="E">
                <attribute name="a" optional="YES" attributeType="Composite" composite="Address"/>
            </entity>
        """, kind: .unsupported, message: "composite attributes are not supported", line: 4, at: "Composite"),
    ErrorCase(name: "minimum above maximum", format: .xml, source: """
            <entity name="E">
                <attribute name="a" optional="YES" attributeType="Double" minValueString="10" maxValueString="1.5" usesScalarValueType="YES"/>
            </entity>
        """, kind: .invalidRange, message: "minimum 10.0 is greater than maximum 1.5", line: 4, at: "10\""),
    ErrorCase(name: "date bounds", format: .xml, source: """
            <entity name="E">
                <attribute name="d" optional="YES" attributeType="Date" minDateTimeInterval="100" maxDateTimeInterval="-5"/>
            </entity>
        """, kind: .invalidRange, message: "is greater than maximum", line: 4, at: "100"),
    ErrorCase(name: "invalid regular expression", format: .xml, source: """
            <entity name="E">
                <attribute name="a" optional="YES" attributeType="String" regularExpressionString="(unclosed"/>
            </entity>
        """, kind: .invalidRegularExpression, message: "'(unclosed' is not a valid regular expression", line: 4, at: "(unclosed"),
    ErrorCase(name: "entity defined twice", format: .xml, source: """
            <entity name="A"/>
            <entity name="A"/>
        """, kind: .duplicateName, message: "entity 'A' is defined twice", line: 4, at: "A\"/>"),
    ErrorCase(name: "property defined twice", format: .xml, source: """
            <entity name="A">
                <attribute name="x" optional="YES" attributeType="String"/>
                <attribute name="x" optional="YES" attributeType="Date"/>
            </entity>
        """, kind: .duplicateName, message: "A has two properties named 'x'", line: 5, at: "x\" optional"),
    ErrorCase(name: "fetch index names an unknown property", format: .xml, source: """
            <entity name="E">
                <attribute name="name" optional="YES" attributeType="String"/>
                <fetchIndex name="byNameIndex">
                    <fetchIndexElement property="nmae" type="Binary" order="ascending"/>
                </fetchIndex>
            </entity>
        """, kind: .unknownProperty, message: "index 'byNameIndex' of E: no property named 'nmae'", line: 6, at: "nmae",
        suggestion: "name"),
    ErrorCase(name: "constraint names an unknown property", format: .xml, source: """
            <entity name="E">
                <attribute name="email" optional="YES" attributeType="String"/>
                <uniquenessConstraints>
                    <uniquenessConstraint>
                        <constraint value="emial"/>
                    </uniquenessConstraint>
                </uniquenessConstraints>
            </entity>
        """, kind: .unknownProperty, message: "no property named 'emial'", line: 7, at: "emial", suggestion: "email"),
    ErrorCase(name: "fetch request for an unknown entity", format: .xml, source: """
            <entity name="Employee"/>
            <fetchRequest name="all" entity="Employe" predicateString="TRUEPREDICATE"/>
        """, kind: .unknownEntity, message: "fetch request 'all': no entity named 'Employe'", line: 4, at: "Employe\"",
        suggestion: "Employee"),
    ErrorCase(name: "unknown deletion rule", format: .xml, source: """
            <entity name="A">
                <relationship name="b" optional="YES" maxCount="1" deletionRule="Cascad" destinationEntity="A"/>
            </entity>
        """, kind: .structure, message: "unknown deletionRule 'Cascad'", line: 4, at: "Cascad", suggestion: "Cascade"),
    ErrorCase(name: "relationship without destination", format: .xml, source: """
            <entity name="A">
                <relationship name="b" optional="YES" maxCount="1" deletionRule="Nullify"/>
            </entity>
        """, kind: .structure, message: "<relationship> has no destinationEntity=\"...\" (relationship 'b' of A)", line: 4, at: "<relationship"),
    ErrorCase(name: "entity without a name", format: .xml, source: """
            <entity representedClassName="A"/>
        """, kind: .structure, message: "<entity> has no name=", line: 3, at: "<entity"),
    ErrorCase(name: "configuration member", format: .xml, source: """
            <entity name="A"/>
            <configuration name="Cloud">
                <memberEntity name="B"/>
            </configuration>
        """, kind: .unknownEntity, message: "configuration 'Cloud': no entity named 'B'", line: 5, at: "B\"/>"),
]

@Suite struct ValidationErrorTests {
    func read(_ c: ErrorCase) throws(ModelError) -> Model {
        switch c.format {
        case .yaml: return try ModelReader.read(yaml: c.text, file: "test.yaml")
        case .json: return try ModelReader.read(json: c.text, file: "test.json")
        case .xml: return try ModelReader.read(xml: c.text, file: "contents")
        }
    }

    func check(_ c: ErrorCase) {
        if c.isWarning { return checkWarning(c) }
        do {
            let model = try read(c)
            Issue.record("expected an error, read \(model.entityNames)")
        } catch {
            #expect(error.kind == c.kind, "\(error)")
            #expect(error.message.contains(c.message), "\(error)")
            #expect(error.suggestion == c.suggestion, "\(error)")
            checkPlace(c, line: error.line, column: error.column, file: error.file, "\(error)")
        }
    }

    func checkWarning(_ c: ErrorCase) {
        do {
            let model = try read(c)
            #expect(model.warnings.count == 1, "\(model.warnings)")
            guard let w = model.warnings.first else { return }
            #expect(w.kind == c.kind, "\(w)")
            #expect(w.message.contains(c.message), "\(w)")
            checkPlace(c, line: w.line, column: w.column, file: w.file, "\(w)")
        } catch {
            Issue.record("expected a warning, got \(error)")
        }
    }

    func checkPlace(_ c: ErrorCase, line: Int?, column: Int?, file: String, _ what: String) {
        #expect(line == c.line, "\(what)")
        let lines = c.text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        if let at = c.at {
            let text = String(lines[c.line - 1])
            let expected = text.range(of: at).map { text.distance(from: text.startIndex, to: $0.lowerBound) + 1 }
            #expect(expected != nil, "the row's text '\(at)' is not on line \(c.line)")
            #expect(column == expected, "\(what)")
        }
        #expect(file == (c.format == .xml ? "contents" : c.format == .json ? "test.json" : "test.yaml"))
    }

    @Test(arguments: yamlErrorCases)
    func yaml(_ c: ErrorCase) { check(c) }

    @Test(arguments: xmlErrorCases)
    func xml(_ c: ErrorCase) { check(c) }

    /// Windows line endings change no line or column.
    @Test(arguments: (yamlErrorCases + xmlErrorCases).filter {
        ["unknown destination", "invalid regular expression", "predicate with entities does not parse",
         "default in a multi-line tag"].contains($0.name)
    })
    func crlfLineEndings(_ c: ErrorCase) {
        var crlf = c
        crlf.lineEnding = "\r\n"
        check(crlf)
    }

    @Test func descriptionReadsLikeACompilerMessage() {
        let e = ModelError(.unknownEntity, "relationship 'd' of E: no entity named 'Departmnt'", file: "m.yaml",
                           line: 5, column: 26, suggestion: "Department")
        #expect(e.description == "m.yaml:5:26: error: relationship 'd' of E: no entity named 'Departmnt' (did you mean 'Department'?)")
        #expect(ModelError(.unreadable, "no such file or folder", file: "x.yaml").description == "x.yaml: error: no such file or folder")
    }
}
