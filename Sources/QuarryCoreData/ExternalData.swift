// Binary data Core Data keeps outside the store ("Allows External
// Storage"): the column holds 0x02 and the file's name (a UUID in ASCII),
// the bytes live in `.<store name>_SUPPORT/_EXTERNAL_DATA/<name>` beside the
// store. At open, the rows that refer to a file are found and the files
// read into a TEMP table the views look up, so a fetch sees the bytes as
// if they were inline. A referenced file that is missing (a store copied
// without its hidden folder — every wire-ios fixture of the corpus) reads
// as nil, and the opening's warnings say how many and where they were
// looked for: refusing the whole store for it would leave the rest unread.
import Foundation
import QuarrySQL
import QuarrySQLite
import QuarryStore

enum ExternalData {
    static let table = "\"_coredata_external\""

    /// Loads every external reference of the tagged columns; returns the
    /// columns ("TABLE.COLUMN") that have any.
    static func load(_ views: CoreDataViews, connection: SQLiteConnection, storePath: String,
                     warnings: inout [String]) throws -> Set<String> {
        let tagged = views.hierarchies.flatMap(\.columns).filter(\.tagged)
        guard !tagged.isEmpty else { return [] }
        // The folder Quarry stores keep their own external values in too (ExternalBinaryStorage.swift).
        let folder = ExternalBinaryStorage.folder(forStoreAt: storePath)
        var found: Set<String> = []
        var missing: [String] = []
        for c in tagged {
            let rows = try connection.query("SELECT \"Z_PK\", \(SQLIdentifier.quoted(c.cdColumn)) FROM main.\(SQLIdentifier.quoted(c.cdTable)) WHERE substr(\(SQLIdentifier.quoted(c.cdColumn)), 1, 1) = x'02'")
            guard !rows.isEmpty else { continue }
            if found.isEmpty {
                try connection.execute("CREATE TEMP TABLE IF NOT EXISTS \(table) (\"tbl\" TEXT, \"col\" TEXT, \"pk\" INTEGER, \"bytes\" BLOB, PRIMARY KEY (\"tbl\", \"col\", \"pk\"))")
            }
            found.insert(c.cdTable + "." + c.cdColumn)
            for row in rows {
                guard case .int(let pk) = row[0], case .data(let bytes) = row[1] else { continue }
                let name = fileName(fromReference: bytes) ?? ""
                let file = folder.appendingPathComponent(name)
                guard !name.isEmpty, !name.contains("/"), let data = FileManager.default.contents(atPath: file.path) else {
                    missing.append(name.isEmpty ? "(no name) in \(c.cdTable) row \(pk)" : name)
                    continue
                }
                try connection.execute("INSERT INTO \(table) VALUES (?, ?, ?, ?)",
                                       [.string(c.cdTable), .string(c.cdColumn), .int(pk), .data([UInt8](data))])
            }
        }
        if !missing.isEmpty {
            warnings.append("\(missing.count) external data file\(missing.count == 1 ? "" : "s") referred to by the store \(missing.count == 1 ? "is" : "are") not in \(folder.path) (\(missing.prefix(3).joined(separator: ", "))\(missing.count > 3 ? ", …" : "")): those values read as nil; copy the store together with its hidden .…_SUPPORT folder")
        }
        return found
    }

    /// The file name a 0x02 reference holds: the bytes after the tag up to
    /// a NUL (Core Data ends the name with one), spaces trimmed; nil for a
    /// value that is not a reference. The only decoding of a reference:
    /// reading here and the sweep (CoreDataExternalSweep.swift) must agree.
    static func fileName(fromReference bytes: [UInt8]) -> String? {
        guard bytes.first == 0x02 else { return nil }
        return String(decoding: bytes.dropFirst().prefix { $0 != 0 }, as: UTF8.self).trimmingCharacters(in: .whitespaces)
    }
}
