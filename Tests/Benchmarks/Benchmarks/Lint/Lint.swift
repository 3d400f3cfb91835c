// Issue 24's speed target: a repository of 2,000 Swift and Objective-C files
// with its model, linted in under 2 s on the project machine (files in
// parallel, the model loaded once), beside the floor — reading the same
// files, as `cat` would.
//
// The tree is generated once per run in a temporary folder: 1,600 Swift and
// 400 Objective-C files of about 200 lines each, every file with ordinary
// code and eight predicate calls of the shapes apps write (a fetch request
// with its entity, `%@`/`%K` arguments, `@FetchRequest`, compound parts,
// SUBQUERY, multi-line literals), a few of them with a mistake so that the
// reporting path runs too.
//
// Run: cd Tests/Benchmarks && swift package benchmark --target Lint
import Benchmark
import Foundation
import QuarryLint
import QuarryModel

let modelYAML = """
entities:
  Department:
    attributes:
      name: { type: string, optional: false }
      budget: decimal
    indexes: [name]
    relationships:
      employees: { to: Employee, many: true, inverse: department }
  Employee:
    attributes:
      name: { type: string, optional: false }
      age: integer16
      salary: integer64
      startDate: date
    relationships:
      department: { to: Department, inverse: employees }
"""
let model = try! ModelReader.read(yaml: modelYAML, file: "Company.yaml")

let swiftCalls = [
    #"        let request = NSFetchRequest<Employee>(entityName: "Employee")"#,
    #"        request.predicate = NSPredicate(format: "name BEGINSWITH[cd] %@ AND age > %d", prefix, 30)"#,
    #"        let byKey = NSPredicate(format: "%K == %@", #keyPath(Employee.name), name)"#,
    #"        let sub = NSPredicate(format: "SUBQUERY(employees, $e, $e.salary > %@).@count > 0", limit)"#,
    #"        let both = NSCompoundPredicate(andPredicateWithSubpredicates: [NSPredicate(format: "salary > 100"), byKey])"#,
    #"        let wrong = NSPredicate(format: "salary > %@ AND nmae == %@", limit)"#,
    "        let long = NSPredicate(format: \"\"\"\n            department.name == %@\n              AND startDate < %@\n            \"\"\", dept, date)",
    #"        let sum = NSExpression(format: "sum:(employees.salary)")"#,
]
let objcCalls = [
    #"    NSFetchRequest *r = [NSFetchRequest fetchRequestWithEntityName:@"Department"];"#,
    #"    r.predicate = [NSPredicate predicateWithFormat:@"ANY employees.age > %d AND name LIKE[c] %@", 30, pattern];"#,
    #"    NSPredicate *p = [NSPredicate predicateWithFormat:@"employees.@count > 3 " @"AND budget < %@", max];"#,
    #"    NSPredicate *q = [NSPredicate predicateWithFormat:@"name ==[c] %@", n];"#,
]

func makeTree() -> [String] {
    let root = NSTemporaryDirectory() + "quarry-bench-lint-\(ProcessInfo.processInfo.processIdentifier)"
    try? FileManager.default.removeItem(atPath: root)
    var files: [String] = []
    for i in 0..<2_000 {
        let folder = root + "/Module\(i % 40)"
        try! FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var lines: [String] = []
        let objc = i % 5 == 4
        lines.append(objc ? "#import <CoreData/CoreData.h>" : "import CoreData")
        for f in 0..<8 {
            lines.append(objc ? "- (void)method\(f) {" : "    func method\(f)() {")
            for k in 0..<20 { lines.append(objc ? "    NSInteger v\(k) = \(k) * \(i);" : "        let v\(k) = \(k) * \(i) // a comment with \"quotes\"") }
            lines.append(objc ? objcCalls[f % objcCalls.count] : swiftCalls[f])
            lines.append(objc ? "}" : "    }")
        }
        let path = folder + "/File\(i)" + (objc ? ".m" : ".swift")
        FileManager.default.createFile(atPath: path, contents: Data(lines.joined(separator: "\n").utf8))
        files.append(path)
    }
    return files
}

let files = makeTree()

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(metrics: [.wallClock], timeUnits: .milliseconds,
                                           maxDuration: .seconds(30), maxIterations: 10)

    Benchmark("baseline: read 2,000 source files") { _ in
        var bytes = 0
        for f in files { bytes += FileManager.default.contents(atPath: f)?.count ?? 0 }
        blackHole(bytes)
    }

    Benchmark("quarry lint: 2,000 source files with the model") { _ in
        blackHole(try Linter.lint(files: files, models: [model]))
    }
}
