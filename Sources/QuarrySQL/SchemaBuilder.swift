// CREATE statements for a model under the store mapping: one table per
// hierarchy, foreign keys, join tables, fetch indexes and uniqueness
// constraints. Column types follow Core Data's SQLite layout (INTEGER for
// integers and booleans, REAL for doubles, floats, decimals and dates —
// seconds since 2001-01-01 —, TEXT, BLOB for binary data and UUIDs).
import QuarryModel

public enum SchemaBuilder {
    /// The statements that create the schema, in dependency order.
    public static func createStatements(for mapping: StoreMapping) -> [String] {
        let model = mapping.model
        var statements: [String] = []
        var done: Set<String> = []
        for entity in model.entities {
            guard let table = mapping.table(for: entity.name), !done.contains(table) else { continue }
            done.insert(table)
            let family = model.entities.filter { mapping.table(for: $0.name) == table }
            var columns = ["\(q(StoreMapping.primaryKey)) INTEGER PRIMARY KEY", "\(q(StoreMapping.entityColumn)) TEXT NOT NULL"]
            var seen: Set<String> = []
            var foreignKeys: [String] = []
            for member in family {
                for attribute in member.allAttributes(in: model) where !attribute.isTransient {
                    guard let column = mapping.column(for: attribute.name, of: member.name), seen.insert(column).inserted else { continue }
                    columns.append("\(q(column)) \(sqlType(attribute.type))")
                }
                for r in member.allRelationships(in: model) {
                    guard case .foreignKey(let column)? = mapping.storage(of: r.name, of: member.name),
                          seen.insert(column).inserted, let target = mapping.table(for: r.destination) else { continue }
                    columns.append("\(q(column)) INTEGER")
                    foreignKeys.append("FOREIGN KEY (\(q(column))) REFERENCES \(q(target))(\(q(StoreMapping.primaryKey))) DEFERRABLE INITIALLY DEFERRED")
                }
            }
            statements.append("CREATE TABLE \(q(table)) (" + (columns + foreignKeys).joined(separator: ", ") + ")")
            for member in family {
                for r in member.allRelationships(in: model) {
                    if case .foreignKey(let column)? = mapping.storage(of: r.name, of: member.name) {
                        let index = "\(table)_\(column)_index"
                        if !statements.contains(where: { $0.contains(q(index)) }) {
                            statements.append("CREATE INDEX \(q(index)) ON \(q(table)) (\(q(column)))")
                        }
                    }
                }
                for fetchIndex in member.fetchIndexes {
                    let cols = fetchIndex.elements.compactMap { element -> String? in
                        guard let property = element.property,
                              let c = mapping.column(for: property, of: member.name)
                                ?? foreignKeyColumn(property, member.name, mapping) else { return nil }
                        return q(c) + (element.isAscending ? "" : " DESC")
                    }
                    guard !cols.isEmpty else { continue }
                    statements.append("CREATE INDEX \(q(table + "_" + fetchIndex.name)) ON \(q(table)) (\(cols.joined(separator: ", ")))")
                }
                for (n, constraint) in member.uniquenessConstraints.enumerated() {
                    let cols = constraint.properties.compactMap { mapping.column(for: $0, of: member.name) ?? foreignKeyColumn($0, member.name, mapping) }
                    guard cols.count == constraint.properties.count, !cols.isEmpty else { continue }
                    statements.append("CREATE UNIQUE INDEX \(q("\(member.name)_unique_\(n)")) ON \(q(table)) (\(cols.map(q).joined(separator: ", ")))")
                }
            }
        }
        for join in mapping.joinTables {
            var columns = ["\"source\" INTEGER NOT NULL REFERENCES \(q(join.source))(\(q(StoreMapping.primaryKey))) ON DELETE CASCADE",
                           "\"target\" INTEGER NOT NULL REFERENCES \(q(join.target))(\(q(StoreMapping.primaryKey))) ON DELETE CASCADE"]
            if join.ordered { columns.append("\"position\" INTEGER NOT NULL DEFAULT 0") }
            columns.append("PRIMARY KEY (\"source\", \"target\")")
            statements.append("CREATE TABLE \(q(join.table)) (" + columns.joined(separator: ", ") + ") WITHOUT ROWID")
            statements.append("CREATE INDEX \(q(join.table + "_target")) ON \(q(join.table)) (\"target\", \"source\")")
        }
        return statements
    }

    static func foreignKeyColumn(_ property: String, _ entity: String, _ mapping: StoreMapping) -> String? {
        if case .foreignKey(let c)? = mapping.storage(of: property, of: entity) { return c }
        return nil
    }

    static func q(_ name: String) -> String { SQLIdentifier.quoted(name) }

    /// The declared SQL type of an attribute type.
    public static func sqlType(_ type: AttributeType) -> String {
        switch type {
        case .integer16, .integer32, .integer64, .boolean: return "INTEGER"
        case .double, .float, .decimal, .date: return "REAL"
        case .string, .uri: return "TEXT"
        case .binary, .uuid: return "BLOB"
        default: return "BLOB"
        }
    }
}
