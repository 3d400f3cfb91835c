// A SQL script that builds the same store as the SQLite writer: the schema
// SQLStore creates (tables, indexes, the metadata table), then one INSERT
// per record, in one transaction. `sqlite3 new.sqlite < fixtures.sql` gives
// a store Quarry opens; the tests check it holds exactly the rows the SQLite
// writer writes. Values are literals here (a script has nowhere to bind
// them): strings quoted with '' doubled, UUIDs and data as X'..' blobs,
// booleans 0/1, dates as REAL seconds since 2001.
import Foundation

final class SQLFixtureWriter: FixtureWriter {
    private let out: ByteWriter
    private var prefixes: [String] = []
    private var linkPrefixes: [String: String] = [:]

    init(path: String, plan: FixturePlan) throws {
        out = try ByteWriter(path: path)
        out.write("-- Quarry fixtures (seed \(plan.seed)). Load with: sqlite3 NEW.sqlite < this.sql\n")
        out.write("PRAGMA foreign_keys = ON;\nBEGIN;\n")
        for statement in SchemaBuilder.createStatements(for: plan.mapping) { out.write(statement + ";\n") }
        out.write("CREATE TABLE \(StoreMapping.quotedMetadataTable) (\"key\" TEXT PRIMARY KEY, \"value\" TEXT);\n")
        out.write("INSERT INTO \(StoreMapping.quotedMetadataTable) VALUES ('format', 'quarry-1'), ('entities', \(Self.literal(.string(plan.model.entityNames.joined(separator: ",")))));\n")
        // The model, as SQLStore saves it, so the loaded dump opens with its path alone.
        out.write("INSERT INTO \(StoreMapping.quotedMetadataTable) VALUES ('model', \(Self.literal(.string(ModelArchive.json(plan.model))))), ('model_format', 'json');\n")
        // And the names the script's tables have, as SQLStore saves them (SQLStore+Layout.swift).
        out.write("INSERT INTO \(StoreMapping.quotedMetadataTable) VALUES (\(Self.literal(.string(StoreLayoutRecord.metadataKey))), \(Self.literal(.string(plan.mapping.layoutRecord.json))));\n")
        for entity in plan.entities {
            let columns = [StoreMapping.primaryKey, StoreMapping.entityColumn] + entity.columns
            prefixes.append("INSERT INTO \(SQLIdentifier.quoted(entity.table)) (\(columns.map(SQLIdentifier.quoted).joined(separator: ", "))) VALUES (")
        }
        for link in plan.links {
            linkPrefixes[link.table] = "INSERT INTO \(SQLIdentifier.quoted(link.table)) (\(StoreMapping.quotedJoinSource), \(StoreMapping.quotedJoinTarget)\(link.ordered ? ", \(StoreMapping.quotedJoinPosition)" : "")) VALUES ("
        }
    }

    func write(_ record: FixtureRecord) throws {
        switch record {
        case .object(let o):
            var line = prefixes[o.entityIndex] + String(o.primaryKey) + ", " + Self.literal(.string(o.entity))
            for v in o.values { line += ", " + Self.literal(v) }
            out.write(line + ");\n")
        case .link(let l):
            out.write(linkPrefixes[l.table]! + "\(l.source), \(l.target)" + (l.position.map { ", \($0)" } ?? "") + ");\n")
        }
    }

    func finish() throws {
        out.write("COMMIT;\n")
        try out.close()
    }

    static func literal(_ v: Value) -> String {
        switch v {
        case .null: return "NULL"
        case .bool(let b): return b ? "1" : "0"
        case .int(let n): return String(n)
        case .double(let d), .date(let d):
            // SQLite reads Swift's shortest form (1e-05, 5e+20) exactly;
            // a bare integer-looking double keeps its ".0" so it stays REAL.
            return String(d)
        case .decimal(let d): return "\(d)"
        case .string(let s): return "'" + s.replacingOccurrences(of: "'", with: "''") + "'"
        case .uuid(let u): return "X'" + withUnsafeBytes(of: u.uuid) { hex(Array($0)) } + "'"
        case .data(let bytes): return "X'" + hex(bytes) + "'"
        default: return "'" + Printer.format(v).replacingOccurrences(of: "'", with: "''") + "'"
        }
    }

    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789ABCDEF")
        var s = ""
        s.reserveCapacity(bytes.count * 2)
        for b in bytes { s.append(digits[Int(b >> 4)]); s.append(digits[Int(b & 15)]) }
        return s
    }
}
