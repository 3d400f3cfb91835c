// Random models for the differential fuzzer: the same four-entity skeleton
// every time — Item, its sub-entity Special (inheritance: one table, rows
// told apart by entity), Owner (to-one Item.owner with its to-many inverse
// Owner.items) and Tag (many-to-many Owner.tags / Tag.owners, and a to-one
// Item.tag with no inverse) — with attributes drawn at random from every
// attribute type, optional or not. The data has NULL in optional attributes,
// an owner with no items and one with most of them, a tag nobody has,
// duplicate and accented strings (composed and decomposed), and the edges of
// every numeric type. Predicates are typed against the drawn model:
// comparisons with literals of the attribute's type (and of others), nil
// tests, to-one paths, quantifiers, @count @sum @avg @min @max, SUBQUERY
// with bare keys, on every entity, sub-entity included.
import Foundation
import QuarryFixtures
@testable import QuarryStore

struct RandomModel {
    let model: Model
    /// The attributes of each entity, inherited ones included.
    let attributes: [String: [Attribute]]

    static let entities = ["Item", "Special", "Owner", "Tag"]
    static let types: [AttributeType] = [.integer16, .integer32, .integer64, .double, .float, .decimal, .string, .boolean,
                                         .date, .binary, .uuid, .uri]
    static let toOne: [String: [(String, String)]] = ["Item": [("owner", "Owner"), ("tag", "Tag")], "Special": [("owner", "Owner"), ("tag", "Tag")]]
    static let toMany: [String: [(String, String)]] = ["Owner": [("items", "Item"), ("tags", "Tag")], "Tag": [("owners", "Owner")]]

    init(rng: inout Seeded) {
        func draw(_ prefix: String, _ rng: inout Seeded) -> [Attribute] {
            var out: [Attribute] = []
            // Each type at least once across the model; names say the type.
            for (i, type) in RandomModel.types.shuffled(using: &rng).prefix(Int.random(in: 4...7, using: &rng)).enumerated() {
                out.append(Attribute(name: "\(prefix)\(type.yamlName)\(i)", type: type, isOptional: Int.random(in: 0..<4, using: &rng) != 0))
            }
            return out
        }
        var item = draw("i", &rng)
        item.append(Attribute(name: "label", type: .string))
        let special = draw("s", &rng)
        let owner = draw("o", &rng) + [Attribute(name: "label", type: .string)]
        let tag = [Attribute(name: "label", type: .string)] + RandomModel.types.map { Attribute(name: "t\($0.yamlName)", type: $0) }
        model = Model(entities: [
            Entity(name: "Item", attributes: item, relationships: [
                Relationship(name: "owner", destination: "Owner", inverse: "items"),
                Relationship(name: "tag", destination: "Tag"),
            ]),
            Entity(name: "Special", parent: "Item", attributes: special),
            Entity(name: "Owner", attributes: owner, relationships: [
                Relationship(name: "items", destination: "Item", isToMany: true, inverse: "owner"),
                Relationship(name: "tags", destination: "Tag", isToMany: true, inverse: "owners"),
            ]),
            Entity(name: "Tag", attributes: tag, relationships: [
                Relationship(name: "owners", destination: "Owner", isToMany: true, inverse: "tags"),
            ]),
        ])
        attributes = ["Item": item, "Special": item + special, "Owner": owner, "Tag": tag]
    }

    // MARK: Data

    static func values(_ type: AttributeType) -> [Value] {
        switch type {
        case .integer16: return [.int(0), .int(1), .int(-1), .int(32767), .int(-32768), .int(7)]
        case .integer32: return [.int(0), .int(2_147_483_647), .int(-2_147_483_648), .int(42)]
        case .integer64: return [.int(0), .int(.max), .int(.min), .int(9_007_199_254_740_993), .int(42)]
        case .double: return [.double(0), .double(-0.0), .double(1e300), .double(-1e300), .double(0.1), .double(42), .double(9_007_199_254_740_992)]
        case .float: return [.double(0), .double(1.5), .double(-2.25), .double(42), .double(16_777_216)]
        case .decimal: return [.double(0), .double(0.1), .double(-1.5), .double(42), .double(1e15)]
        case .string, .uri:
            return [.string(""), .string("é"), .string("e\u{301}"), .string("dup"), .string("dup"), .string("DUP"), .string("Ünïcode"),
                    .string("a_b%"), .string("佐藤"), .string("ß"), .string("ss"), .string("https://a.example/x")]
        case .boolean: return [.bool(true), .bool(false)]
        case .date: return [.date(0), .date(-1e9), .date(1e9), .date(0.5)]
        case .binary: return [.data([]), .data([0]), .data([1, 2, 3])]
        case .uuid: return [.uuid(UUID(uuidString: "00000000-0000-0000-0000-000000000000")!), .uuid(UUID(uuidString: "FFFFFFFF-0000-4000-8000-000000000001")!)]
        case .transformable, .objectID, .undefined: return []
        }
    }

    func row(_ entity: String, _ rng: inout Seeded) -> [String: Value] {
        var out: [String: Value] = [:]
        for a in attributes[entity]! {
            if a.isOptional && Int.random(in: 0..<4, using: &rng) == 0 { continue }
            let pool = RandomModel.values(a.type)
            out[a.name] = pool[Int.random(in: 0..<pool.count, using: &rng)]
        }
        return out
    }

    /// The store's rows: 6 owners (the first with no items, the second with
    /// most), 5 tags (the last owned by nobody), 50 items and 20 specials.
    func fill(_ store: SQLStore, seed: UInt64) throws {
        var rng = Seeded(state: seed)
        let owners = try (0..<6).map { _ in try store.insert("Owner", row("Owner", &rng)) }
        let tags = try (0..<5).map { _ in try store.insert("Tag", row("Tag", &rng)) }
        for o in owners.dropFirst() {
            for t in tags.dropLast() where Bool.random(using: &rng) { try store.link(o, "tags", t) }
        }
        for i in 0..<70 {
            var toOne: [String: ObjectID] = [:]
            let pick = Int.random(in: 0..<10, using: &rng)
            if pick < 6 { toOne["owner"] = owners[1] } else if pick < 9 { toOne["owner"] = owners[2 + pick % 4] }
            if Bool.random(using: &rng) { toOne["tag"] = tags[Int.random(in: 0..<tags.count, using: &rng)] }
            _ = try store.insert(i < 50 ? "Item" : "Special", row(i < 50 ? "Item" : "Special", &rng), toOne: toOne)
        }
    }

    /// The same shape of data from QuarryFixtures with edge cases: NULLs,
    /// numeric extremes and awkward text as `quarry fixtures --edge-cases`
    /// writes them, relationships wired by the generator.
    func fillFromFixtures(_ store: SQLStore, seed: UInt64) throws {
        let generator = try FixtureGenerator(model: model, seed: seed, counts: ["Owner": 6, "Tag": 5, "Item": 50, "Special": 20], edgeCases: true)
        try generator.write(into: store)
    }

    // MARK: Predicates

    static func literals(_ type: AttributeType) -> [String] {
        switch type {
        case .integer16, .integer32, .integer64:
            return ["0", "1", "-1", "32767", "-32768", "2147483647", "9223372036854775807", "-9223372036854775808", "9007199254740993", "1.5", "nil", "'1'"]
        case .double, .float, .decimal: return ["0", "-0.0", "0.1", "1e300", "-1e300", "42", "1.5", "nil", "16777216"]
        case .string, .uri: return ["''", "'é'", "'e\u{301}'", "'dup'", "'DUP'", "'ss'", "'ß'", "nil", "3", "'https://a.example/x'"]
        case .boolean: return ["YES", "NO", "1", "0", "nil"]
        case .date: return ["CAST(0, 'NSDate')", "CAST(-1000000000, 'NSDate')", "CAST(0.5, 'NSDate')", "nil"]
        case .uuid: return ["CAST('00000000-0000-0000-0000-000000000000', 'NSUUID')", "nil"]
        case .binary: return ["nil"]
        case .transformable, .objectID, .undefined: return ["nil"]
        }
    }

    static func operators(_ type: AttributeType) -> [String] {
        switch type {
        case .string, .uri: return ["==", "!=", "<", ">=", "BEGINSWITH", "ENDSWITH", "CONTAINS", "LIKE", "==[c]", "==[cd]", "BEGINSWITH[d]", "CONTAINS[cd]", "IN"]
        case .boolean, .uuid, .binary: return ["==", "!="]
        default: return ["==", "!=", "<", "<=", ">", ">="]
        }
    }

    static func numeric(_ type: AttributeType) -> Bool { type.isNumeric }
}

struct ModelFuzzer {
    var rng: Seeded
    let model: RandomModel

    mutating func pick<T>(_ items: [T]) -> T { items[Int.random(in: 0..<items.count, using: &rng)] }

    mutating func predicate(_ entity: String, depth: Int) -> FuzzNode {
        if depth > 0 && Int.random(in: 0..<3, using: &rng) == 0 {
            switch Int.random(in: 0..<3, using: &rng) {
            case 0: return .not(predicate(entity, depth: depth - 1))
            case 1: return .and(predicate(entity, depth: depth - 1), predicate(entity, depth: depth - 1))
            default: return .or(predicate(entity, depth: depth - 1), predicate(entity, depth: depth - 1))
            }
        }
        return .leaf(leaf(entity))
    }

    /// `key op literal` for an attribute of `entity`, the key prefixed.
    mutating func comparison(_ prefix: String, _ entity: String) -> String {
        let a = pick(model.attributes[entity]!)
        // Mostly a literal of the attribute's type, sometimes of another.
        let type = Int.random(in: 0..<5, using: &rng) == 0 ? pick(RandomModel.types) : a.type
        let op = pick(RandomModel.operators(a.type))
        if op == "IN" { return "\(pick(RandomModel.literals(type))) IN \(prefix)\(a.name)" }
        return "\(prefix)\(a.name) \(op) \(pick(RandomModel.literals(type)))"
    }

    mutating func leaf(_ entity: String) -> String {
        let toOnes = RandomModel.toOne[entity] ?? []
        let toManys = (RandomModel.toMany[entity] ?? []) + toOnes.filter { $0.1 == "Owner" }.map { ("\($0.0).items", "Item") }
        switch Int.random(in: 0..<12, using: &rng) {
        case 0, 1, 2: return comparison("", entity)
        case 3:
            let a = pick(model.attributes[entity]!)
            return "\(a.name) \(pick(["==", "!="])) nil"
        case 4:
            let a = pick(model.attributes[entity]!)
            guard RandomModel.numeric(a.type) || a.type == .date else { return comparison("", entity) }
            let l = RandomModel.literals(a.type).filter { $0 != "nil" }
            return "\(a.name) \(pick(["BETWEEN", "IN"])) {\(pick(l)), \(pick(l))}"
        case 5, 6:
            guard let (r, destination) = toOnes.isEmpty ? nil : pick(toOnes) else { return comparison("", entity) }
            return Bool.random(using: &rng) ? comparison(r + ".", destination) : "\(r) \(pick(["==", "!="])) nil"
        case 7, 8:
            guard let (r, destination) = toManys.isEmpty ? nil : pick(toManys) else { return comparison("", entity) }
            return "\(pick(["ANY", "ALL", "NONE"])) \(comparison(r + ".", destination))"
        case 9, 10:
            guard let (r, destination) = toManys.isEmpty ? nil : pick(toManys) else { return comparison("", entity) }
            let numbers = model.attributes[destination]!.filter { RandomModel.numeric($0.type) || $0.type == .date }
            if numbers.isEmpty || Bool.random(using: &rng) {
                return "\(r).@count \(pick([">", "==", "<"])) \(pick(["0", "1", "3", "30"]))"
            }
            let a = pick(numbers)
            return "\(r).\(pick(["@sum", "@avg", "@min", "@max"])).\(a.name) \(pick([">", "<", "==", "!="])) \(pick(RandomModel.literals(a.type)))"
        default:
            guard let (r, destination) = toManys.isEmpty ? nil : pick(toManys) else { return comparison("", entity) }
            let inner = model.attributes[destination]!
            let a = pick(inner)
            // A bare key of the same type from the outer entity, when there is one.
            let outer = model.attributes[entity]!.filter { $0.type == a.type }
            let rhs = outer.isEmpty || Bool.random(using: &rng) ? pick(RandomModel.literals(a.type)) : pick(outer).name
            return "SUBQUERY(\(r), $x, $x.\(a.name) \(pick(RandomModel.operators(a.type).filter { $0 != "IN" })) \(rhs)).@count \(pick([">", "=="])) \(pick(["0", "1"]))"
        }
    }
}
