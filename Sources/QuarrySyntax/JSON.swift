// A small JSON reader and writer. Quarry needs to keep integers apart from
// doubles and booleans apart from numbers (Foundation's JSONSerialization
// hands back NSNumber for all three on Linux), and to read one line of JSON
// Lines at a time quickly, so it has its own: the machine interface
// (QuarryShell) reads and writes with it, and a store's layout record
// (QuarrySQL/StoreLayoutRecord+JSON.swift) is saved and read with it at
// every open, ten times faster than JSONEncoder and JSONDecoder.

/// A parsed JSON document. Objects keep their keys in input order.
public indirect enum JSON: Equatable, Sendable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    /// A number written exactly as given (decimals, which a Double would round).
    case number(String)
    case string(String)
    case array([JSON])
    case object([(String, JSON)])

    public static func == (a: JSON, b: JSON) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case (.bool(let x), .bool(let y)): return x == y
        case (.int(let x), .int(let y)): return x == y
        case (.double(let x), .double(let y)): return x == y
        case (.number(let x), .number(let y)): return x == y
        case (.string(let x), .string(let y)): return x == y
        case (.array(let x), .array(let y)): return x == y
        case (.object(let x), .object(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: return false
        }
    }

    /// The member named `key` of an object.
    public subscript(key: String) -> JSON? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.0 == key }?.1
    }

    public var stringValue: String? { if case .string(let s) = self { return s } else { return nil } }
}

public struct JSONError: Error, CustomStringConvertible {
    public var message: String
    public var offset: Int
    public var description: String { "invalid JSON at byte \(offset): \(message)" }
}

extension JSON {
    /// Parses one JSON value (surrounding whitespace allowed). Nesting is
    /// capped so hostile input cannot exhaust the stack.
    public static func parse(_ text: String) throws(JSONError) -> JSON {
        try parse(text, verbatim: false)
    }

    /// `verbatim`: every number comes back as `.number` with its text as
    /// written, and a raw control character inside a string is an error, as
    /// RFC 8259 says — for a caller that must see exactly what a YAML parser
    /// would (QuarryModel's saved-model reader); `parse(_:)` keeps the
    /// machine interface's leniency.
    public static func parse(_ text: String, verbatim: Bool) throws(JSONError) -> JSON {
        var reader = JSONReader(bytes: Array(text.utf8), verbatim: verbatim)
        let value = try reader.value(depth: 0)
        reader.skipWhitespace()
        guard reader.index == reader.bytes.count else { throw reader.error("unexpected text after the value") }
        return value
    }

    /// Compact serialisation; doubles in shortest round-trip form.
    public var serialized: String {
        var out = ""
        write(to: &out)
        return out
    }

    func write(to out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .int(let i): out += String(i)
        case .double(let d):
            if !d.isFinite { out += "null" } else if d == d.rounded(), abs(d) < 1e15 {
                // 3.0 prints as 3.0 so that readers keep it a double.
                out += String(d)
            } else { out += d.description }
        case .number(let text): out += text
        case .string(let s): out += JSONText.quote(s)
        case .array(let items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                item.write(to: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (i, (key, value)) in members.enumerated() {
                if i > 0 { out += "," }
                out += JSONText.quote(key)
                out += ":"
                value.write(to: &out)
            }
            out += "}"
        }
    }
}

struct JSONReader {
    let bytes: [UInt8]
    /// See `JSON.parse(_:verbatim:)`.
    var verbatim = false
    var index = 0
    static let maximumDepth = 512

    func error(_ message: String) -> JSONError { JSONError(message: message, offset: index) }

    mutating func skipWhitespace() {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }

    mutating func value(depth: Int) throws(JSONError) -> JSON {
        guard depth < JSONReader.maximumDepth else { throw error("nesting too deep") }
        skipWhitespace()
        guard index < bytes.count else { throw error("unexpected end of input") }
        switch bytes[index] {
        case UInt8(ascii: "{"):
            index += 1
            var members: [(String, JSON)] = []
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
            while true {
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw error("expected a string key") }
                let key = try string()
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("expected ':'") }
                index += 1
                members.append((key, try value(depth: depth + 1)))
                skipWhitespace()
                guard index < bytes.count else { throw error("unterminated object") }
                if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                if bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
                throw error("expected ',' or '}'")
            }
        case UInt8(ascii: "["):
            index += 1
            var items: [JSON] = []
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return .array(items) }
            while true {
                items.append(try value(depth: depth + 1))
                skipWhitespace()
                guard index < bytes.count else { throw error("unterminated array") }
                if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                if bytes[index] == UInt8(ascii: "]") { index += 1; return .array(items) }
                throw error("expected ',' or ']'")
            }
        case UInt8(ascii: "\""):
            return .string(try string())
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        default:
            return try number()
        }
    }

    mutating func literal(_ word: String, _ value: JSON) throws(JSONError) -> JSON {
        let w = Array(word.utf8)
        guard index + w.count <= bytes.count, Array(bytes[index..<index + w.count]) == w else { throw error("unexpected text") }
        index += w.count
        return value
    }

    mutating func number() throws(JSONError) -> JSON {
        let start = index
        var isInteger = true
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        while index < bytes.count {
            let c = bytes[index]
            if c >= 0x30 && c <= 0x39 { index += 1; continue }
            if c == UInt8(ascii: ".") || c == UInt8(ascii: "e") || c == UInt8(ascii: "E") || c == UInt8(ascii: "+") || c == UInt8(ascii: "-") {
                isInteger = false
                index += 1
                continue
            }
            break
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if isInteger, !verbatim, let i = Int64(text) { return .int(i) }
        guard let d = Double(text), !text.isEmpty else { throw error("invalid number '\(text)'") }
        return verbatim ? .number(text) : .double(d)
    }

    mutating func string() throws(JSONError) -> String {
        index += 1
        var out: [UInt8] = []
        while true {
            guard index < bytes.count else { throw error("unterminated string") }
            let c = bytes[index]
            index += 1
            if c == UInt8(ascii: "\"") { break }
            if verbatim && c < 0x20 { throw error("a control character in a string") }
            if c != UInt8(ascii: "\\") { out.append(c); continue }
            guard index < bytes.count else { throw error("unterminated escape") }
            let e = bytes[index]
            index += 1
            switch e {
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "/"), UInt8(ascii: "\\"), UInt8(ascii: "\""): out.append(e)
            case UInt8(ascii: "u"):
                out.append(contentsOf: UTF8.encode(try unicodeEscape())!)
            default: throw error("unknown escape")
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The scalar of a `\u` escape (the `\u` already read), as RFC 8259
    /// says: a high surrogate followed by a `\u` low surrogate is one scalar;
    /// any other surrogate stands alone and becomes U+FFFD, and whatever
    /// follows it is read on its own (so `"\ud800\u0041"` is "\u{FFFD}A").
    mutating func unicodeEscape() throws(JSONError) -> Unicode.Scalar {
        let unit = try hex4()
        if unit >= 0xD800 && unit < 0xDC00, index + 1 < bytes.count,
           bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") {
            let mark = index
            index += 2
            let low = try hex4()
            if low >= 0xDC00 && low < 0xE000 {
                return Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)) ?? "\u{FFFD}"
            }
            index = mark  // not a pair: the next escape is read on its own
        }
        return Unicode.Scalar(unit) ?? "\u{FFFD}"
    }

    /// Four hex digits, exactly (`UInt32(_:radix:)` alone would take "+abc").
    mutating func hex4() throws(JSONError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("bad \\u escape: expected four hex digits") }
        var v: UInt32 = 0
        for b in bytes[index..<index + 4] {
            let digit: UInt32
            switch b {
            case 0x30...0x39: digit = UInt32(b - 0x30)
            case 0x41...0x46: digit = UInt32(b - 0x41 + 10)
            case 0x61...0x66: digit = UInt32(b - 0x61 + 10)
            default: throw error("bad \\u escape: expected four hex digits")
            }
            v = v << 4 | digit
        }
        index += 4
        return v
    }
}
