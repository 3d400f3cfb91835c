// The store's layout record in the store (QuarrySQL/StoreLayoutRecord.swift):
// saved beside the model in `_quarry_metadata` (key `layout`, JSON text)
// when a store is created or migrated, and read back at every open to build
// the mapping, so that a name once chosen stays. A store made before stores
// kept their layout has none: its names are derived from the model the way
// they always were, once, and saved (a read-only file just derives them).
// At open the layout is also held against the database itself: every table
// and column it names must be there, or the store is refused, naming what is
// missing, before anything reads a column that is not there.
import Foundation

extension SQLStore {
    /// The layout record saved in the store on `database`, or nil (no
    /// Quarry store, or one made before stores kept their layout).
    public static func storedLayout(in database: any SQLDatabase) throws -> StoreLayoutRecord? {
        try storedLayout(from: StoreMetadataRows.read(in: database), location: database.location)
    }

    /// The layout record in metadata rows read from the store at `location`.
    static func storedLayout(from metadata: StoreMetadataRows, location: String) throws -> StoreLayoutRecord? {
        guard let text = metadata[StoreLayoutRecord.metadataKey] else { return nil }
        do { return try StoreLayoutRecord(json: text) } catch {
            throw StoreError.layoutMismatch(location: location, problem: "its saved layout does not read (\(error))")
        }
    }

    /// Saves `layout` in the store's metadata, replacing the one there
    /// (inside the caller's transaction).
    static func saveLayout(_ layout: StoreLayoutRecord, in database: any SQLDatabase) throws {
        try StoreMetadataRows.write([(StoreLayoutRecord.metadataKey, layout.json)], in: database)
    }

    /// Every table and column the mapping names — tables of hierarchies with
    /// their attribute and foreign-key columns, join tables with their two
    /// key columns — must exist; `StoreError.layoutMismatch` names the first
    /// ones missing otherwise ("Employee"."age"). (Order and version columns are not asked for:
    /// an older store gets them when it opens, SQLStore+Ordered.swift and
    /// SQLStore+Versions.swift.)
    /// `actual`: the database's columns by table (`columnsByTable`), read
    /// once for this and the checks that follow it at an open.
    func checkLayout(_ actual: [String: Set<String>]) throws {
        var missing: [String] = []
        func need(_ table: String, _ columns: [String]) {
            guard let present = actual[table] else { missing.append(SQLIdentifier.quoted(table)); return }
            for c in columns where !present.contains(c) { missing.append(SQLIdentifier.quoted(table) + "." + SQLIdentifier.quoted(c)) }
        }
        var done: Set<String> = []
        for entity in model.entities {
            guard let table = mapping.table(for: entity.name) else { continue }
            var columns = done.insert(table).inserted ? [StoreMapping.primaryKey, StoreMapping.entityColumn] : []
            for a in entity.allAttributes(in: model) where !a.isTransient {
                if let c = mapping.column(for: a.name, of: entity.name) { columns.append(c) }
            }
            for r in entity.allRelationships(in: model) where !r.isTransient {
                switch mapping.storage(of: r.name, of: entity.name) {
                case .foreignKey(let c)?:
                    columns.append(c)
                case .inverseForeignKey(let c)?:
                    if let destination = mapping.table(for: r.destination) { need(destination, [c]) }
                case .joinTable(let join, let s, let t)?:
                    need(join, [s, t])
                case nil:
                    break
                }
            }
            need(table, columns)
        }
        var seen: Set<String> = []
        missing = missing.filter { seen.insert($0).inserted }
        if !missing.isEmpty {
            throw StoreError.layoutMismatch(location: database.location, problem: "it has no " + missing.prefix(8).joined(separator: ", ")
                                                + (missing.count > 8 ? " (and \(missing.count - 8) more)" : ""))
        }
    }

    /// Every table of the store's schema with its columns, in one query.
    static func columnsByTable(in database: any SQLDatabase) throws -> [String: Set<String>] {
        let sql = database.dialect == .sqlite
            ? "SELECT m.name, p.name FROM sqlite_master AS m JOIN pragma_table_info(m.name) AS p WHERE m.type = 'table'"
            : "SELECT table_name::text, column_name::text FROM information_schema.columns WHERE table_schema = current_schema()"
        var out: [String: Set<String>] = [:]
        for row in try database.query(sql, [], as: [.string, .string]) {
            if case .string(let table) = row[0], case .string(let column) = row[1] { out[table, default: []].insert(column) }
        }
        return out
    }
}
