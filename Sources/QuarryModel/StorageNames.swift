// The names a model may give its entities, attributes and relationships, so
// that a store can be made from any model that validates. Entity names become
// table names and property names column names, double-quoted, in SQLite and
// PostgreSQL; a name either database would refuse or confuse is a model
// error here, before any file is created, rather than a raw SQLite error at
// CREATE TABLE that leaves a stub store behind.
//
// What is refused, and why:
// - empty names, NUL and other control characters (SQLite cuts a name at
//   NUL; neither database takes the rest in a quoted identifier reliably);
// - `"` and `\` (quoting doubles `"`, but tools and error messages that show
//   the name do not, and `\` is an escape in PostgreSQL's E'' strings), and
//   `,` in entity names (the store records its entity list comma-separated);
// - names longer than 63 bytes: PostgreSQL cuts identifiers there silently,
//   so two long names could become one table;
// - entity names starting with `_` (Quarry's own tables: `_quarry_metadata`,
//   join tables `_Entity_relationship`) or `sqlite_` (SQLite reserves them),
//   and any name starting with `_quarry`;
// - two entities, or two properties of one entity (inherited included), whose
//   names differ only in case: SQLite compares identifiers case-insensitively.

public enum StorageNames {
    /// PostgreSQL's NAMEDATALEN - 1.
    public static let maximumLength = 63

    /// What is wrong with `name` as an entity (table) name, or nil.
    public static func problem(entity name: String) -> String? {
        if let p = problem(name, what: "an entity name") { return p }
        if name.utf8.first == UInt8(ascii: "_") {
            return "names starting with '_' are reserved for Quarry's own tables (such as _quarry_metadata and join tables)"
        }
        if hasFoldedPrefix(name, "sqlite_") { return "SQLite reserves table names starting with 'sqlite_'" }
        if name.utf8.contains(UInt8(ascii: ",")) { return "an entity name cannot contain ','" }
        return nil
    }

    /// What is wrong with `name` as an attribute or relationship (column) name, or nil.
    public static func problem(property name: String) -> String? {
        problem(name, what: "a property name")
    }

    static func problem(_ name: String, what: String) -> String? {
        if name.isEmpty { return "\(what) cannot be empty" }
        // One pass over the bytes first: every name of a model is checked at
        // every open, and Foundation's `contains` was most of that.
        if name.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            if name.utf8.contains(0) { return "\(what) cannot contain a NUL character" }
            if let c = name.unicodeScalars.first(where: { $0.value < 0x20 || $0.value == 0x7F }) {
                return "\(what) cannot contain the control character U+\(String(c.value, radix: 16, uppercase: true).leftPadded(4))"
            }
            if name.utf8.contains(UInt8(ascii: "\"")) { return "\(what) cannot contain '\"'" }
            return "\(what) cannot contain '\\'"
        }
        if name.utf8.count > maximumLength {
            return "\(what) can be at most \(maximumLength) bytes long (PostgreSQL cuts longer identifiers), this one is \(name.utf8.count)"
        }
        if hasFoldedPrefix(name, "_quarry") { return "names starting with '_quarry' are reserved for Quarry" }
        return nil
    }

    /// Whether `name` starts with the lower-case ASCII `prefix` in any case.
    /// ASCII folding is the whole of it: no other character lower-cases into
    /// an ASCII letter of these prefixes, and this runs for every name at
    /// every open, where `lowercased()` was measurable.
    private static func hasFoldedPrefix(_ name: String, _ prefix: String) -> Bool {
        name.utf8.count >= prefix.utf8.count
            && zip(name.utf8, prefix.utf8).allSatisfy { ($0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0) == $1 }
    }

    /// The key two names collide on in SQLite, which compares identifiers
    /// without regard to ASCII case.
    public static func collisionKey(_ name: String) -> String {
        String(decoding: name.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }, as: UTF8.self)
    }
}

private extension String {
    func leftPadded(_ width: Int) -> String { String(repeating: "0", count: Swift.max(0, width - count)) + self }
}
