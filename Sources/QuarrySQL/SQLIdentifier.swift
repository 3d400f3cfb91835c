// Identifiers in SQL text. Every table and column name reaches SQL only
// through `quoted`, and only names that come from the model (checked by the
// mapping) are ever quoted: no string of the user's becomes SQL text.

public enum SQLIdentifier {
    /// `name` as a double-quoted SQL identifier, inner quotes doubled.
    public static func quoted(_ name: String) -> String {
        // Names with quotes are rare; avoid Foundation's replacing (it bridges
        // to NSString) on the hot path of every planned statement.
        guard name.utf8.contains(UInt8(ascii: "\"")) else { return "\"" + name + "\"" }
        var out = "\""
        for ch in name { out += ch == "\"" ? "\"\"" : String(ch) }
        return out + "\""
    }
}

/// A piece of SQL with the values bound to its `?` placeholders, in order.
public struct SQLFragment: Sendable, Equatable, CustomStringConvertible {
    public var sql: String
    public var arguments: [Value]

    public init(_ sql: String, _ arguments: [Value] = []) {
        self.sql = sql
        self.arguments = arguments
    }

    public var description: String { arguments.isEmpty ? sql : "\(sql) -- \(arguments.map(Printer.format))" }

    static func + (a: SQLFragment, b: SQLFragment) -> SQLFragment {
        SQLFragment(a.sql + b.sql, merged(a.arguments, b.arguments))
    }

    /// `a`, `middle` and `b` as one fragment: one allocation for the text.
    static func infix(_ a: SQLFragment, _ middle: String, _ b: SQLFragment) -> SQLFragment {
        SQLFragment(SQLText.concat(a.sql, middle, b.sql), merged(a.arguments, b.arguments))
    }

    /// Both lists of arguments; shares either when the other is empty
    /// (most fragments bind nothing).
    static func merged(_ a: [Value], _ b: [Value]) -> [Value] {
        if b.isEmpty { return a }
        if a.isEmpty { return b }
        return a + b
    }

    static func + (a: SQLFragment, b: String) -> SQLFragment { SQLFragment(a.sql + b, a.arguments) }
    static func + (a: String, b: SQLFragment) -> SQLFragment { SQLFragment(a + b.sql, b.arguments) }

    /// How many operands one flat AND / OR chain of the SQL holds. SQLite
    /// parses `a AND b AND c …` into a tree as deep as the chain and refuses
    /// trees deeper than 1,000; longer chains are written as parenthesised
    /// groups of at most this many, nested (depth ~ 64·log₆₄ n).
    static let flatChain = 64

    /// Joins fragments with a separator (AND or OR, whose grouping does not
    /// change the meaning), in nested groups when there are many.
    static func balancedJoin(_ parts: [SQLFragment], _ separator: String) -> SQLFragment {
        func group(_ range: Range<Int>) -> SQLFragment {
            if range.count <= flatChain { return join(Array(parts[range]), separator) }
            let size = (range.count + flatChain - 1) / flatChain
            let groups = stride(from: range.lowerBound, to: range.upperBound, by: size).map { start in
                "(" + group(start..<min(start + size, range.upperBound)) + ")"
            }
            return join(groups, separator)
        }
        return group(0..<parts.count)
    }

    /// Joins fragments with a separator.
    static func join(_ parts: [SQLFragment], _ separator: String) -> SQLFragment {
        var out = SQLFragment("")
        for (i, p) in parts.enumerated() {
            if i > 0 { out.sql += separator }
            out.sql += p.sql
            out.arguments += p.arguments
        }
        return out
    }
}
