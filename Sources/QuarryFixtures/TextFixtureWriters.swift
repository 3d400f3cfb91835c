// The text formats: JSON, NDJSON and CSV. Records arrive grouped (all of
// one entity, then the next; links table by table), so each format opens a
// group when the entity or table changes and never looks back.
//
// Values are written as the machine interface writes them (INTERFACES.md):
// dates `{"$date": seconds since 2001}`, UUIDs `{"$uuid": ...}`, data
// `{"$data": base64}`, doubles in shortest round-trip form. CSV writes
// dates in ISO 8601 and leaves nulls empty (an empty string is `""`).
import Foundation

enum TextValues {
    static func json(_ v: Value) -> String {
        switch v {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .int(let n): return String(n)
        case .double(let d): return d.isFinite ? String(d) : "null"
        case .decimal(let d): return "\(d)"
        case .string(let s): return quote(s)
        case .date(let d): return "{\"$date\": \(String(d))}"
        case .uuid(let u): return "{\"$uuid\": \"\(u.uuidString)\"}"
        case .data(let bytes): return "{\"$data\": \"\(Data(bytes).base64EncodedString())\"}"
        default: return quote(Printer.format(v))
        }
    }

    static func quote(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where u.value < 0x20:
                out += "\\u00" + String(u.value, radix: 16).leftPadded(2)
            default: out.unicodeScalars.append(u)
            }
        }
        return out + "\""
    }

    static func csv(_ v: Value) -> String {
        switch v {
        case .null: return ""
        case .string(let s):
            let needsQuotes = s.isEmpty || s.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" })
                || s.first == " " || s.last == " "
            return needsQuotes ? "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : s
        case .date(let d): return isoDate(d)
        case .uuid(let u): return u.uuidString
        case .data(let bytes): return Data(bytes).base64EncodedString()
        case .double(let d): return String(d)
        default: return json(v)
        }
    }

    nonisolated(unsafe) static let formatter: ISO8601DateFormatter = {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return f
    }()

    static func isoDate(_ seconds: Double) -> String {
        formatter.string(from: Date(timeIntervalSinceReferenceDate: seconds))
    }
}

extension String {
    func leftPadded(_ width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}

/// JSON (`{"Entity": [ {...}, ... ], "_join_table": [ {...} ]}`) or NDJSON
/// (one object per line, with `"entity"` or `"table"`).
final class JSONFixtureWriter: FixtureWriter {
    private let out: ByteWriter
    private let lines: Bool
    private var group: String?
    private var first = true

    init(path: String, lines: Bool) throws {
        out = try ByteWriter(path: path)
        self.lines = lines
        if !lines { out.write("{") }
    }

    private func open(_ name: String) {
        guard !lines, group != name else { return }
        out.write(group == nil ? "\n  " : "\n  ],\n  ")
        out.write(TextValues.quote(name) + ": [")
        group = name
        first = true
    }

    func write(_ record: FixtureRecord) throws {
        var line: String
        switch record {
        case .object(let o):
            open(o.entity)
            line = lines ? "{\"entity\": \(TextValues.quote(o.entity)), \(StoreMapping.quotedPrimaryKey): \(o.primaryKey)" : "{\(StoreMapping.quotedPrimaryKey): \(o.primaryKey)"
            for (name, value) in zip(o.properties, o.values) {
                line += ", " + TextValues.quote(name) + ": " + TextValues.json(value)
            }
        case .link(let l):
            open(l.table)
            line = lines ? "{\"table\": \(TextValues.quote(l.table)), \(StoreMapping.quotedJoinSource): \(l.source)" : "{\(StoreMapping.quotedJoinSource): \(l.source)"
            line += ", \(StoreMapping.quotedJoinTarget): \(l.target)"
            if let p = l.position { line += ", \(StoreMapping.quotedJoinPosition): \(p)" }
        }
        line += "}"
        if lines {
            out.write(line + "\n")
        } else {
            out.write((first ? "\n    " : ",\n    ") + line)
            first = false
        }
    }

    func finish() throws {
        if !lines { out.write(group == nil ? "}\n" : "\n  ]\n}\n") }
        try out.close()
    }
}

/// A folder of CSV files: `Entity.csv` (`_pk` and the properties) per
/// entity, `<join table>.csv` (source, target[, position]) per join table.
final class CSVFixtureWriter: FixtureWriter {
    private let folder: String
    private var out: ByteWriter?
    private var group: String?

    init(folder: String) throws {
        self.folder = folder
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    private func open(_ name: String, header: [String]) throws {
        guard group != name else { return }
        try out?.close()
        out = try ByteWriter(path: folder + "/" + name + ".csv")
        out!.write(header.map { TextValues.csv(.string($0)) }.joined(separator: ",") + "\n")
        group = name
    }

    func write(_ record: FixtureRecord) throws {
        switch record {
        case .object(let o):
            try open(o.entity, header: [StoreMapping.primaryKey] + o.properties)
            out!.write(String(o.primaryKey) + "," + o.values.map(TextValues.csv).joined(separator: ",") + "\n")
        case .link(let l):
            try open(l.table, header: StoreMapping.joinColumns(ordered: l.position != nil))
            out!.write("\(l.source),\(l.target)" + (l.position.map { ",\($0)" } ?? "") + "\n")
        }
    }

    func finish() throws {
        try out?.close()
        out = nil
    }
}
