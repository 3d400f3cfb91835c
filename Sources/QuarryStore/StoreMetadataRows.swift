// The rows of a store's `_quarry_metadata` table (key → text: `format`,
// `entities`, `model`, `model_format`, `layout`, `history`, and on
// PostgreSQL `functions`), read in ONE query when a store opens and handed
// to every part of the open that needs one of them — the saved model, the
// layout record, the entity list the schema check compares, the history
// switch — instead of a query each (an open made six before; on a store
// that migrates, each a fresh statement to compile). A migration updates
// the copy with exactly the rows it wrote (`write` is the one way rows are
// written here), so the checks after it see what the database now holds.
// A value that is not text (a hand-edited row) reads as absent, as each
// query's `.string` pattern read it before.
import Foundation
import QuarryModel

struct StoreMetadataRows {
    private var values: [String: String]

    init(_ values: [String: String] = [:]) { self.values = values }

    subscript(key: String) -> String? { values[key] }

    /// Every row of the metadata table on `database`; empty when the table
    /// does not exist (not a Quarry store, or a new one).
    static func read(in database: any SQLDatabase) throws -> StoreMetadataRows {
        guard try database.tableNames().contains(StoreMapping.metadataTable) else { return StoreMetadataRows() }
        return try readExisting(in: database)
    }

    /// As `read`, for a caller that knows the table is there.
    static func readExisting(in database: any SQLDatabase) throws -> StoreMetadataRows {
        var values: [String: String] = [:]
        for row in try database.query("SELECT \"key\", \"value\" FROM \(StoreMapping.quotedMetadataTable)", [], as: [.string, .string]) {
            if case .string(let key) = row[0], case .string(let value) = row[1] { values[key] = value }
        }
        return StoreMetadataRows(values)
    }

    /// Writes `rows` (each key's value replaced, or inserted), in one
    /// statement, inside the caller's transaction; the same SQL on SQLite
    /// (3.24 and later) and PostgreSQL, the key being the table's primary key.
    static func write(_ rows: [(key: String, value: String)], in database: any SQLDatabase) throws {
        guard !rows.isEmpty else { return }
        let sql = "INSERT INTO \(StoreMapping.quotedMetadataTable) (\"key\", \"value\") VALUES "
            + Array(repeating: "(?, ?)", count: rows.count).joined(separator: ", ")
            + " ON CONFLICT (\"key\") DO UPDATE SET \"value\" = excluded.\"value\""
        try database.run(sql, rows.flatMap { [Value.string($0.key), .string($0.value)] })
    }

    /// This copy with `rows` as `write` left them in the database.
    mutating func apply(_ rows: [(key: String, value: String)]) {
        for row in rows { values[row.key] = row.value }
    }
}
