// Placeholder renumbering: the planner writes `?` (one SQL text for every
// engine); PostgreSQL numbers its parameters `$1, $2, ...`.
//
// A `?` inside a '...' string literal, a "..." quoted identifier, a
// `-- comment` or a `/* comment */` (nested, as PostgreSQL allows) is text,
// not a parameter, so those are copied unchanged. Doubled quotes ('' and "")
// inside literals need no special case: they close and reopen the literal.
// E'...' escape strings and $tag$...$tag$ dollar quotes are not produced by
// the planner and are not recognised; a `?` is never valid there anyway.
//
// The optional cast suffix per parameter exists for prepared statements: a
// statement prepared without parameter types gets them inferred by the
// server (`salary > $1` infers float8), and postgres-nio then sends our
// binary bytes without a type, so an int8 would be read as a float8's bits.
// Writing `$1::int8` fixes the parameter's type to the one we encode.

/// Rewrites `?` placeholders as PostgreSQL's `$n`.
public enum PostgresPlaceholders {
    /// `sql` with each `?` (outside literals, quoted identifiers and
    /// comments) replaced by `$1`, `$2`, ..., and the number replaced.
    ///
    /// ```swift
    /// PostgresPlaceholders.renumber("SELECT * FROM t WHERE a = ? AND b = '?'")
    /// // ("SELECT * FROM t WHERE a = $1 AND b = '?'", 1)
    /// ```
    public static func renumber(_ sql: String) -> (sql: String, count: Int) {
        renumber(sql, casts: nil)
    }

    /// As `renumber(_:)`, appending `casts[n - 1]` (e.g. `"::int8"`) after
    /// `$n` when it is non-empty; `casts` must have one entry per `?`.
    static func renumber(_ sql: String, casts: [String]?) -> (sql: String, count: Int) {
        let bytes = Array(sql.utf8)
        // Fast path: no `?` at all, nothing to do.
        guard bytes.contains(UInt8(ascii: "?")) else { return (sql, 0) }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 16)
        var n = 0
        var i = 0
        let count = bytes.count
        while i < count {
            let b = bytes[i]
            switch b {
            case UInt8(ascii: "'"), UInt8(ascii: "\""):
                // Copy through the closing quote (or to the end if unterminated).
                var j = i + 1
                while j < count && bytes[j] != b { j += 1 }
                let end = min(j + 1, count)
                out.append(contentsOf: bytes[i..<end])
                i = end
            case UInt8(ascii: "-") where i + 1 < count && bytes[i + 1] == UInt8(ascii: "-"):
                var j = i + 2
                while j < count && bytes[j] != UInt8(ascii: "\n") { j += 1 }
                out.append(contentsOf: bytes[i..<j])
                i = j
            case UInt8(ascii: "/") where i + 1 < count && bytes[i + 1] == UInt8(ascii: "*"):
                var depth = 1
                var j = i + 2
                while j < count && depth > 0 {
                    if bytes[j] == UInt8(ascii: "*") && j + 1 < count && bytes[j + 1] == UInt8(ascii: "/") {
                        depth -= 1; j += 2
                    } else if bytes[j] == UInt8(ascii: "/") && j + 1 < count && bytes[j + 1] == UInt8(ascii: "*") {
                        depth += 1; j += 2
                    } else {
                        j += 1
                    }
                }
                out.append(contentsOf: bytes[i..<min(j, count)])
                i = j
            case UInt8(ascii: "?"):
                n += 1
                out.append(UInt8(ascii: "$"))
                out.append(contentsOf: String(n).utf8)
                if let casts, n <= casts.count { out.append(contentsOf: casts[n - 1].utf8) }
                i += 1
            default:
                out.append(b)
                i += 1
            }
        }
        return (String(decoding: out, as: UTF8.self), n)
    }
}
