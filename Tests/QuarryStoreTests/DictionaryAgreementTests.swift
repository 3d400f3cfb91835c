// Dictionary fetches mean the same in SQL and in memory, for every aggregate
// function over every attribute type: `sum:` of text, dates and booleans,
// `average:` of dates, Integer 64 sums that overflow, floating-point sums
// whose order matters. Each request is planned once and run on both engines
// of every database; the outcomes (rows, or the error code) must be equal.
// The requests are exhaustive rather than random: every function × every
// attribute of an entity, of a to-one's destination and of a to-many's
// elements, alone, grouped by a to-one and grouped by an attribute, over the
// random models of the engine fuzzer (fixed seeds: NULLs, numeric extremes,
// duplicate and accented strings; one filled by QuarryFixtures with edge
// cases) and the Company fixture.
import Foundation
import Testing
@testable import QuarryStore

/// What a dictionary fetch gave: rows of canonical cells, or an error code.
enum DictionaryOutcome: Equatable, CustomStringConvertible {
    case rows([[String]])
    case error(String)

    init(_ body: () throws -> [DictionaryRow]) {
        do { self = .rows(try body().map { $0.values.map(DictionaryOutcome.cell) }) } catch { self = .error(EngineOutcome.code(of: error)) }
    }

    /// Numbers compare by value, whatever their representation: SQL gives
    /// an average as a double where memory may keep a decimal; integral
    /// values compare exactly, others to 12 significant digits (a decimal
    /// column is REAL in SQL and Decimal in memory).
    static func cell(_ v: Value) -> String {
        func number(_ d: Double) -> String {
            if d.rounded() == d, abs(d) < 9e15 { return "n:\(Int64(d))" }
            return "n:" + String(format: "%.12g", d)
        }
        switch v {
        case .int(let i): return "n:\(i)"
        case .double(let d): return number(d)
        case .decimal(let d): return number(NSDecimalNumber(decimal: d).doubleValue)
        case .date(let d): return "date:" + number(d)
        default: return Printer.format(v)
        }
    }

    var description: String {
        switch self {
        case .rows(let r): return "\(r.count) rows: " + r.prefix(4).map { "[" + $0.joined(separator: ", ") + "]" }.joined(separator: " ")
        case .error(let code): return "error \(code)"
        }
    }
}

@Suite("Dictionary fetches: every aggregate over every type agrees", .serialized)
struct DictionaryAgreementTests {
    static let functions = ["count", "sum", "average", "min", "max", "median", "mode", "stddev"]

    /// (label, entity, properties as (name, expression), group-by key paths)
    typealias Shape = (String, String, [(String, String)], [String])

    /// Every function over `paths`, alone and with each grouping.
    static func shapes(_ entity: String, paths: [String], groupings: [String]) -> [Shape] {
        var out: [Shape] = []
        for path in paths {
            for f in functions {
                let aggregate = ("x", "\(f):(\(path))")
                out.append(("\(f):(\(path))", entity, [aggregate], []))
                for g in groupings {
                    out.append(("\(f):(\(path)) GROUP BY \(g)", entity, [("g", g), aggregate], [g]))
                }
            }
        }
        return out
    }

    /// Every attribute of an entity, of its to-one destinations, and (one
    /// value per object) of its to-many elements.
    static func shapes(model: RandomModel) -> [Shape] {
        var out: [Shape] = []
        for entity in RandomModel.entities {
            let own = model.attributes[entity]!.map(\.name)
            let toOnes = RandomModel.toOne[entity] ?? []
            let throughToOne = toOnes.flatMap { r, d in model.attributes[d]!.map { "\(r).\($0.name)" } }
            let groupings = toOnes.map(\.0) + own.prefix(2) + toOnes.prefix(1).map { "\($0.0).label" }
            out += shapes(entity, paths: own + throughToOne + toOnes.map(\.0), groupings: groupings)
            for (r, d) in RandomModel.toMany[entity] ?? [] {
                out += shapes(entity, paths: [r] + model.attributes[d]!.map { "\(r).\($0.name)" }, groupings: []).map { s in
                    (s.0, s.1, [("label", "label")] + s.2, s.3)
                }
            }
        }
        return out
    }

    static func request(_ shape: Shape) throws -> FetchRequest {
        var request = FetchRequest(entity: shape.1)
        request.propertiesToFetch = try shape.2.map { try property($0.0, $0.1) }
        request.propertiesToGroupBy = try shape.3.map { try FetchProperty(keyPath: $0) }
        return request
    }

    /// The shapes on which the engines disagree, with both outcomes; how
    /// many ran wholly in SQL.
    static func disagreements(_ shapes: [Shape], stores: [(String, SQLStore)]) throws -> (found: [String], inSQL: Int) {
        var found: [String] = []
        var inSQL = 0
        for shape in shapes {
            let request = try request(shape)
            var outcomes: [(String, DictionaryOutcome)] = []
            for (i, (name, store)) in stores.enumerated() {
                if (try? SQLPlanner.planDictionaries(request, mapping: store.mapping)) != nil { inSQL += 1 }
                outcomes.append(("\(name) sql", DictionaryOutcome { try store.fetchDictionaries(request, engine: .sql) }))
                // The memory engine sees the same objects on every database
                // and takes them in key order: once is enough.
                if i == 0 { outcomes.append(("\(name) memory", DictionaryOutcome { try store.fetchDictionaries(request, engine: .memory) })) }
            }
            for other in outcomes.dropFirst() where other.1 != outcomes[0].1 {
                found.append("\(shape.1) \(shape.0): \(outcomes[0].0) \(outcomes[0].1) vs \(other.0) \(other.1)")
                break
            }
        }
        return (found, inSQL)
    }

    /// Fixed seeds: the same models every run, so a failure reproduces.
    @Test(arguments: [UInt64(1), 2, 3])
    func randomModels(seed: UInt64) throws {
        var rng = Seeded(state: seed)
        let model = RandomModel(rng: &rng)
        let dataSeed = rng.next()
        // PostgreSQL with the first model only: a few thousand round trips each.
        let stores = try TestEngine.available.filter { $0 == .sqlite || seed == 1 }.map { engine in
            let store = try engine.emptyStore(model: model.model)
            // Seed 3's rows come from QuarryFixtures with edge cases.
            if seed == 3 { try model.fillFromFixtures(store, seed: dataSeed) } else { try model.fill(store, seed: dataSeed) }
            return (engine.rawValue, store)
        }
        let shapes = Self.shapes(model: model)
        let (found, inSQL) = try Self.disagreements(shapes, stores: stores)
        print("dictionary agreement: seed \(seed), \(shapes.count) requests, \(inSQL) planned in SQL, \(found.count) disagreements")
        #expect(found.isEmpty, "\(found.count) of \(shapes.count): \(found.prefix(8).joined(separator: "\n"))")
        // The check has teeth only if SQL runs a good share of them.
        #expect(inSQL * 5 > shapes.count * stores.count, "\(inSQL) of \(shapes.count * stores.count) in SQL")
    }

    static let stores = EngineStores { try Fixture.store(engine: $0) }

    @Test(arguments: TestEngine.available)
    func companyFixture(engine: TestEngine) throws {
        let store = try Self.stores.store(engine)
        let employee = ["name", "age", "salary", "startDate", "active", "email", "department", "department.name", "department.budget"]
        let shapes = Self.shapes("Employee", paths: employee, groupings: ["department", "department.name", "active"])
            + Self.shapes("Department", paths: ["employees", "employees.salary", "employees.age", "employees.name", "employees.startDate",
                                                "employees.active"], groupings: []).map { ($0.0, $0.1, [("name", "name")] + $0.2, $0.3) }
            + Self.shapes("Project", paths: ["budget", "deadline", "members"], groupings: [])
        let (found, inSQL) = try Self.disagreements(shapes, stores: [(engine.rawValue, store)])
        #expect(found.isEmpty, "\(found.count) of \(shapes.count): \(found.prefix(8).joined(separator: "\n"))")
        #expect(inSQL * 4 > shapes.count)
    }

    /// (properties, group by, refused?) — Core Data's rule: with GROUP BY a
    /// property is grouped or aggregates the rows; without, all aggregate
    /// or none does. SQLite would pick a row, PostgreSQL refuses, memory
    /// took the first object: both engines now refuse it alike (A006).
    static let groupingCases: [([(String, String)], [String], Bool)] = [
        ([("name", "name"), ("d", "department.name")], ["department.name"], true),
        ([("d", "department.name"), ("n", "count:(name)")], ["department.name"], false),
        ([("department.name", "department.name"), ("n", "count:(name)")], ["department.name"], false),
        ([("name", "name"), ("a", "average:(salary)")], [], true),
        ([("h", "count:(projects)"), ("a", "average:(salary)")], [], true),
        ([("a", "average:(salary)"), ("m", "max:(age)")], [], false),
        ([("name", "name"), ("p", "count:(projects)")], [], false),
        ([("d", "department"), ("a", "average:(age)")], ["department"], false),
        ([("d", "department"), ("e", "email"), ("a", "average:(age)")], ["department"], true),
    ]

    @Test(arguments: TestEngine.available, 0..<groupingCases.count)
    func propertiesWithoutOneValuePerGroupAreRefused(engine: TestEngine, index: Int) throws {
        let store = try Self.stores.store(engine)
        let (properties, groupBy, refused) = Self.groupingCases[index]
        var request = FetchRequest(entity: "Employee")
        request.propertiesToFetch = try properties.map { try property($0.0, $0.1) }
        request.propertiesToGroupBy = try groupBy.map { try FetchProperty(keyPath: $0) }
        let sql = DictionaryOutcome { try store.fetchDictionaries(request, engine: .sql) }
        let memory = DictionaryOutcome { try store.fetchDictionaries(request, engine: .memory) }
        #expect(sql == memory)
        if refused { #expect(sql == .error("A006")) } else { #expect(sql != .error("A006"), "\(sql)") }
    }

    /// An Integer 64 sum that overflows runs in SQL until the database says
    /// so, then in memory: the exact total when it fits, else the nearest
    /// double — on both engines.
    @Test(arguments: TestEngine.available)
    func integer64SumsThatOverflow(engine: TestEngine) throws {
        let model = Model(entities: [Entity(name: "Row", attributes: [Attribute(name: "n", type: .integer64), Attribute(name: "g", type: .string)])])
        let store = try engine.emptyStore(model: model)
        for (n, g) in [(Int64.max, "a"), (Int64.max, "a"), (Int64.min, "a"), (5, "b"), (Int64.max - 1, "c"), (1, "c")] {
            _ = try store.insert("Row", ["n": .int(n), "g": .string(g)])
        }
        var request = FetchRequest(entity: "Row")
        request.propertiesToFetch = [try FetchProperty(keyPath: "g"), try property("total", "sum:(n)")]
        request.propertiesToGroupBy = [try FetchProperty(keyPath: "g")]
        #expect(try SQLPlanner.planDictionaries(request, mapping: store.mapping) != nil, "should plan in SQL")
        let sql = try store.fetchDictionaries(request, engine: .sql)
        let memory = try store.fetchDictionaries(request, engine: .memory)
        #expect(sql == memory)
        // a: MAX + MAX + MIN = MAX - 1 (fits, exact); b: 5; c: MAX (fits).
        #expect(sql.map { $0["total"] } == [.int(.max - 1), .int(5), .int(.max)])

        request.propertiesToFetch = [try property("total", "sum:(n)")]
        request.propertiesToGroupBy = []
        let whole = try store.fetchDictionaries(request, engine: .sql)
        #expect(whole == (try store.fetchDictionaries(request, engine: .memory)))
        // MAX + MAX + MIN + 5 + MAX - 1 + 1 does not fit: the nearest double.
        #expect(whole.first?["total"] == .double(Double(Int64.max) * 2 + 4))
    }
}
