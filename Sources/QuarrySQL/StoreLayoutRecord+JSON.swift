// The layout record's saved text, written and read by hand over Quarry's
// small JSON type (QuarrySyntax/JSON.swift) rather than JSONEncoder and
// JSONDecoder, which took 0.2 and 0.3 ms for a five-entity record — a sixth
// of opening a store, at every open and every migration (issue 22's rename
// benchmark). The text has the Codable conformance's shape — the same keys,
// each object's sorted, an absent order column left out — and each side
// reads the other's: records saved by earlier versions (JSONEncoder's text,
// `/` escaped as `\/`) read the same (StoreLayoutRecordTests checks both ways).
import QuarrySyntax

extension StoreLayoutRecord {
    /// The record as saved: JSON with sorted keys, so that equal records are equal text.
    public var json: String { Self.object(encoded.sorted { $0.0 < $1.0 }).serialized }

    /// Reads a saved record. Throws an error naming the part that does not
    /// read, or one naming the format for a record of a later one.
    public init(json text: String) throws {
        let root: JSON
        do { root = try JSON.parse(text) } catch { throw Malformed(path: "the record", problem: error.description) }
        let version = try Self.int(root["version"], "version")
        guard version == 1 else { throw UnknownVersion(version: version) }
        self.init()
        for (name, value) in try Self.members(root["entities"], "entities") {
            let at = "entities.\(name)"
            var entity = EntityLayout(table: try Self.string(value["table"], at + ".table"))
            for (attribute, column) in try Self.members(value["columns"], at + ".columns") {
                entity.columns[attribute] = try Self.string(column, "\(at).columns.\(attribute)")
            }
            for (relationship, layout) in try Self.members(value["relationships"], at + ".relationships") {
                let path = "\(at).relationships.\(relationship)"
                let order = try layout["orderColumn"].map { try Self.string($0, path + ".orderColumn") }
                entity.relationships[relationship] = RelationshipLayout(storage: try Self.storage(layout["storage"], path + ".storage"),
                                                                        orderColumn: order)
            }
            entities[name] = entity
        }
        guard case .array(let tables)? = root["joinTables"] else { throw Malformed(path: "joinTables", problem: "expected an array") }
        for (i, table) in tables.enumerated() {
            let at = "joinTables[\(i)]"
            guard case .bool(let ordered)? = table["ordered"] else { throw Malformed(path: at + ".ordered", problem: "expected true or false") }
            joinTables.append(JoinTableLayout(table: try Self.string(table["table"], at + ".table"),
                                              sourceTable: try Self.string(table["sourceTable"], at + ".sourceTable"),
                                              targetTable: try Self.string(table["targetTable"], at + ".targetTable"), ordered: ordered))
        }
    }

    /// A saved record that does not read: where, and what was expected.
    struct Malformed: Error, CustomStringConvertible {
        var path: String
        var problem: String
        var description: String { "its layout record does not read at \(path): \(problem)" }
    }

    // MARK: - Writing

    private var encoded: [(String, JSON)] {
        let entityMembers = entities.map { name, entity -> (String, JSON) in
            let relationships = entity.relationships.map { name, layout -> (String, JSON) in
                var members: [(String, JSON)] = [("storage", Self.object(Self.members(of: layout.storage)))]
                if let order = layout.orderColumn { members.append(("orderColumn", .string(order))) }
                return (name, Self.object(members))
            }
            return (name, Self.object([("table", .string(entity.table)),
                                       ("columns", Self.object(entity.columns.map { ($0.key, JSON.string($0.value)) })),
                                       ("relationships", Self.object(relationships))]))
        }
        let tables = joinTables.map { t in
            Self.object([("table", .string(t.table)), ("sourceTable", .string(t.sourceTable)),
                         ("targetTable", .string(t.targetTable)), ("ordered", .bool(t.ordered))])
        }
        return [("version", .int(Int64(version))), ("entities", Self.object(entityMembers)), ("joinTables", .array(tables))]
    }

    /// An object with its keys in sorted order (the saved text is canonical).
    private static func object(_ members: [(String, JSON)]) -> JSON {
        .object(members.sorted { $0.0 < $1.0 })
    }

    /// A storage's members, named as the Codable conformance names them
    /// (its keys are record fields, not the join table's column names).
    private enum StorageKey: String { case kind, column, table, source, target }

    private static func members(of storage: RelationshipStorage) -> [(String, JSON)] {
        func member(_ key: StorageKey, _ text: String) -> (String, JSON) { (key.rawValue, .string(text)) }
        switch storage {
        case .foreignKey(let column): return [member(.kind, "foreignKey"), member(.column, column)]
        case .inverseForeignKey(let column): return [member(.kind, "inverseForeignKey"), member(.column, column)]
        case .joinTable(let table, let source, let target):
            return [member(.kind, "joinTable"), member(.table, table), member(.source, source), member(.target, target)]
        }
    }

    // MARK: - Reading

    private static func storage(_ value: JSON?, _ path: String) throws -> RelationshipStorage {
        func member(_ key: StorageKey) throws -> String { try string(value?[key.rawValue], path + "." + key.rawValue) }
        switch try member(.kind) {
        case "foreignKey": return .foreignKey(column: try member(.column))
        case "inverseForeignKey": return .inverseForeignKey(column: try member(.column))
        case "joinTable": return .joinTable(table: try member(.table), sourceColumn: try member(.source), targetColumn: try member(.target))
        case let kind: throw Malformed(path: path + ".kind", problem: "unknown storage '\(kind)'")
        }
    }

    private static func members(_ value: JSON?, _ path: String) throws -> [(String, JSON)] {
        guard case .object(let members)? = value else { throw Malformed(path: path, problem: "expected an object") }
        return members
    }

    private static func string(_ value: JSON?, _ path: String) throws -> String {
        guard case .string(let text)? = value else { throw Malformed(path: path, problem: "expected a string") }
        return text
    }

    private static func int(_ value: JSON?, _ path: String) throws -> Int {
        guard case .int(let number)? = value, let int = Int(exactly: number) else { throw Malformed(path: path, problem: "expected an integer") }
        return int
    }
}
