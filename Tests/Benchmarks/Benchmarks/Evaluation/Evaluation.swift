// Scenarios 4, 5 and 6 of PERFORMANCE.md, each beside its hand-written
// baseline in the same run (compare the medians; the ratio is the figure):
//   4. `department.name == 'Dept 7' AND salary > 50000` over 1M host objects
//      (a user type with typed accessors, the predicate compiled for it)
//      vs a Swift closure over typed structs (target ≤ 10×, ~25 ns/object);
//      the same over host objects answering `value(forKey:)` only is shown
//      beside it, without a target;
//   5. the same over JSON-like dictionaries vs hand-written lookups (≤ 1.3×);
//   6. `name BEGINSWITH[cd] 'jo'`, Unicode-correct, vs an ASCII-only closure (≤ 2×).
import Benchmark
import QuarryEvaluation

let count = 1_000_000
let firstNames = ["José", "Zoë", "Müller", "John", "joanna", "Łukasz", "Anna", "Jörg", "Ivan", "佐藤"]

struct Department { let name: String }
struct Employee { let name: String; let salary: Int; let department: Department }

/// A user's host type: typed Swift properties, key-value access through
/// `value(forKey:)`, and — opted in with `TypedKeyValueAccessible` — typed
/// accessors that `Evaluator.compile(_:for:)` resolves once, at compile time.
final class EmployeeObject: TypedKeyValueAccessible, @unchecked Sendable {
    let name: String
    let salary: Int
    let department: DepartmentObject
    init(_ e: Employee, department: DepartmentObject) {
        name = e.name
        salary = e.salary
        self.department = department
    }
    func value(forKey key: String) -> Value? {
        switch key {
        case "name": return .string(name)
        case "salary": return .int(Int64(salary))
        case "department": return .object(ObjectReference(department))
        default: return nil
        }
    }
    static func accessor(forKey key: String) -> KeyAccessor<EmployeeObject>? {
        switch key {
        case "name": return .string { $0.name }
        case "salary": return .int { $0.salary }
        case "department": return .object { $0.department }
        default: return nil
        }
    }
}

final class DepartmentObject: TypedKeyValueAccessible, @unchecked Sendable {
    let name: String
    init(_ name: String) { self.name = name }
    func value(forKey key: String) -> Value? { key == "name" ? .string(name) : nil }
    static func accessor(forKey key: String) -> KeyAccessor<DepartmentObject>? {
        key == "name" ? .string { $0.name } : nil
    }
}

/// The same employee answering `value(forKey:)` only, with its values held
/// as `Value`s, as store objects do: the general path over host objects.
final class PlainEmployeeObject: KeyValueAccessible, @unchecked Sendable {
    let name: Value
    let salary: Value
    let department: Value
    init(_ e: Employee, department: PlainDepartmentObject) {
        name = .string(e.name)
        salary = .int(Int64(e.salary))
        self.department = .object(ObjectReference(department))
    }
    func value(forKey key: String) -> Value? {
        switch key {
        case "name": return name
        case "salary": return salary
        case "department": return department
        default: return nil
        }
    }
}

final class PlainDepartmentObject: KeyValueAccessible, @unchecked Sendable {
    let name: Value
    init(_ name: String) { self.name = .string(name) }
    func value(forKey key: String) -> Value? { key == "name" ? name : nil }
}

let departments = (0..<100).map { Department(name: "Dept \($0)") }
let structs: [Employee] = (0..<count).map { i in
    Employee(name: firstNames[i % firstNames.count] + " \(i)", salary: 20_000 + (i * 7919) % 100_000,
             department: departments[i % departments.count])
}
let departmentObjects = departments.map { DepartmentObject($0.name) }
let objects: [Value] = structs.enumerated().map { i, e in
    .object(ObjectReference(EmployeeObject(e, department: departmentObjects[i % departmentObjects.count])))
}
let plainDepartmentObjects = departments.map { PlainDepartmentObject($0.name) }
let plainObjects: [Value] = structs.enumerated().map { i, e in
    .object(ObjectReference(PlainEmployeeObject(e, department: plainDepartmentObjects[i % plainDepartmentObjects.count])))
}
let dictionaries: [Value] = structs.map { e in
    .dictionary(["name": .string(e.name), "salary": .int(Int64(e.salary)),
                 "department": .dictionary(["name": .string(e.department.name)])])
}

let filter = try! Evaluator.compile(Parser.parsePredicate("department.name == 'Dept 7' AND salary > 50000"))
let hostFilter = try! Evaluator.compile(Parser.parsePredicate("department.name == 'Dept 7' AND salary > 50000"),
                                        for: EmployeeObject.self)
let prefix = try! Evaluator.compile(Parser.parsePredicate("name BEGINSWITH[cd] 'jo'"))

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(metrics: [.wallClock], maxDuration: .seconds(5), maxIterations: 20)

    Benchmark("4 baseline: closure over typed structs") { _ in
        var n = 0
        for e in structs where e.department.name == "Dept 7" && e.salary > 50_000 { n += 1 }
        blackHole(n)
    }
    Benchmark("4 quarry: compiled predicate over host objects") { _ in
        var n = 0
        for o in objects where try hostFilter.evaluate(o) { n += 1 }
        blackHole(n)
    }
    // Not a target: the general path, for host types without typed accessors.
    Benchmark("4 quarry, value(forKey:) only: compiled predicate over host objects") { _ in
        var n = 0
        for o in plainObjects where try filter.evaluate(o) { n += 1 }
        blackHole(n)
    }
    Benchmark("5 baseline: hand-written dictionary lookups") { _ in
        var n = 0
        for d in dictionaries {
            guard case .dictionary(let fields) = d, case .dictionary(let dept)? = fields["department"],
                  case .string(let name)? = dept["name"], name == "Dept 7",
                  case .int(let salary)? = fields["salary"], salary > 50_000 else { continue }
            n += 1
        }
        blackHole(n)
    }
    Benchmark("5 quarry: compiled predicate over dictionaries") { _ in
        var n = 0
        for d in dictionaries where try filter.evaluate(d) { n += 1 }
        blackHole(n)
    }
    Benchmark("6 baseline: ASCII-only prefix closure over dictionaries") { _ in
        var n = 0
        for d in dictionaries {
            guard case .dictionary(let fields) = d, case .string(let name)? = fields["name"] else { continue }
            let u = name.utf8
            guard u.count >= 2 else { continue }
            let a = u[u.startIndex] | 0x20, b = u[u.index(after: u.startIndex)] | 0x20
            if a == UInt8(ascii: "j") && b == UInt8(ascii: "o") { n += 1 }
        }
        blackHole(n)
    }
    Benchmark("6 quarry: BEGINSWITH[cd] over dictionaries") { _ in
        var n = 0
        for d in dictionaries where try prefix.evaluate(d) { n += 1 }
        blackHole(n)
    }
}
