// Expression and value printing for the canonical printer.
import Foundation

enum Precedence {
    static let lowest = -1          // assignment
    static let comparisonOperand = 0 // set operations and everything tighter
    static let unary = 8
    static let postfix = 9
}

extension Printer {
    static func precedence(of e: QueryExpression) -> Int {
        switch e.kind {
        case .assignment: return Precedence.lowest
        case .setOperation: return 0
        case .binary(let op, _, _): return op.precedence
        case .unary: return Precedence.unary
        case .constant(.int(let i)) where i < 0: return Precedence.unary
        case .constant(.double(let d)) where d < 0 || (d == 0 && d.sign == .minus): return Precedence.unary
        default: return Precedence.postfix
        }
    }

    static func write(_ e: QueryExpression, minimumPrecedence: Int, to out: inout String) {
        let needsParentheses = precedence(of: e) < minimumPrecedence
        if needsParentheses { out += "(" }
        writeBare(e, to: &out)
        if needsParentheses { out += ")" }
    }

    static func writeBare(_ e: QueryExpression, to out: inout String) {
        switch e.kind {
        case .constant(let v):
            write(v, to: &out)
        case .evaluatedObject:
            out += "SELF"
        case .variable(let name):
            out += "$"
            out += name
        case .keyPath(let base, let path):
            if let base {
                write(base, minimumPrecedence: Precedence.postfix, to: &out)
                out += "."
            }
            for (i, component) in path.enumerated() {
                if i > 0 { out += "." }
                writeKey(component, to: &out)
            }
        case .index(let base, let sub):
            write(base, minimumPrecedence: Precedence.postfix, to: &out)
            out += "["
            switch sub {
            case .first: out += "FIRST"
            case .last: out += "LAST"
            case .size: out += "SIZE"
            case .expression(let i): write(i, minimumPrecedence: Precedence.lowest + 1, to: &out)
            }
            out += "]"
        case .aggregate(let elements):
            writeList(elements, open: "{", close: "}", to: &out)
        case .function(let name, let args):
            out += name
            writeList(args, open: "(", close: ")", to: &out)
        case .binary(let op, let l, let r):
            // Left-associative: the right operand needs strictly tighter binding.
            write(l, minimumPrecedence: op.precedence, to: &out)
            out += " "
            out += op.rawValue
            out += " "
            write(r, minimumPrecedence: op.precedence + 1, to: &out)
        case .unary(let op, let operand):
            out += op.rawValue
            // `- -5` must not print as `--5`; a negative constant is an operand of its own.
            if op == .negate, precedence(of: operand) == Precedence.unary { out += " " }
            write(operand, minimumPrecedence: Precedence.unary, to: &out)
        case .ternary(let condition, let a, let b):
            out += "TERNARY("
            write(condition, to: &out)
            out += ", "
            write(a, minimumPrecedence: Precedence.comparisonOperand, to: &out)
            out += ", "
            write(b, minimumPrecedence: Precedence.comparisonOperand, to: &out)
            out += ")"
        case .cast(let value, let type):
            writeList([value, type], open: "CAST(", close: ")", to: &out)
        case .functionCall(let receiver, let name, let args):
            writeList([receiver, name] + args, open: "FUNCTION(", close: ")", to: &out)
        case .subquery(let collection, let variable, let predicate):
            out += "SUBQUERY("
            write(collection, minimumPrecedence: Precedence.comparisonOperand, to: &out)
            out += ", $" + variable + ", "
            write(predicate, to: &out)
            out += ")"
        case .setOperation(let op, let l, let r):
            write(l, minimumPrecedence: 0, to: &out)
            out += " "
            out += op.rawValue
            out += " "
            write(r, minimumPrecedence: 1, to: &out)
        case .assignment(let variable, let value):
            out += "$" + variable + " := "
            write(value, minimumPrecedence: Precedence.lowest, to: &out)
        case .anyKey:
            out += "ANYKEY"
        case .placeholder(let text):
            out += text
        }
    }

    static func writeList(_ items: [QueryExpression], open: String, close: String, to out: inout String) {
        out += open
        for (i, item) in items.enumerated() {
            if i > 0 { out += ", " }
            write(item, minimumPrecedence: Precedence.comparisonOperand, to: &out)
        }
        out += close
    }

    /// A key as written: reserved words get `#`, specifier placeholders stay.
    /// A key starting with a digit (from `%K`, as in `%K == 1` with "0") gets
    /// `#` as well, or `0 == 1` would re-parse as a comparison of numbers.
    static func writeKey(_ key: String, to out: inout String) {
        // A key that is not a word (from `%K`: "first name", "a-b", "") is
        // written as `#"..."`; `$` and `%` components (variables, and
        // specifiers kept in parse-only mode) stay as they are.
        // That includes a key spelled like a hyphenated keyword: `#UTI-EQUALS`
        // would read back as `#UTI` minus `EQUALS` (libFuzzer's parser target).
        if !isWord(key) && !isPlaceholder(key) {
            out += "#"
            writeString(key, to: &out)
            return
        }
        var bytes = key
        if key.utf8.first.map({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) == true
            || bytes.withUTF8({ KeywordTable.lookup($0, 0, $0.count) }) != nil {
            out += "#"
        }
        out += key
    }

    /// Whether `key` is a variable (`$name`) or a `%K` kept in parse-only
    /// mode (`%K`, `%1$K`) that the lexer reads back as the same one token.
    /// Anything else with `$` or `%` in front is a plain key, written
    /// `#"..."`. Asked of the lexer itself, so the two
    /// cannot drift: libFuzzer's parser target found `#"%@#"` (a specifier
    /// and more), `$` + a combining mark (one character, but bytes to the
    /// lexer) and `#"%$x…"` (not a specifier at all) printing bare.
    static func isPlaceholder(_ key: String) -> Bool {
        guard let first = key.utf8.first, first == UInt8(ascii: "$") || first == UInt8(ascii: "%"),
              let tokens = try? Lexer.tokenize(SourceText(key)).tokens, tokens.count == 2,
              // Spans compare equal whatever they hold (so trees compare by
              // meaning): the ends are compared as numbers. libFuzzer: `#"$ab "`.
              tokens[0].span.start == 0, tokens[0].span.end == key.utf8.count, case .end = tokens[1].kind
        else { return false }
        // Only a `%K` is a key component when parsed: `a.#"%d"` is the key
        // "%d", and `a.%d` does not parse (libFuzzer: `@avg.#"%d"`).
        switch tokens[0].kind {
        case .variable: return true
        case .specifier(let spec): return spec.category == .keyPath
        default: return false
        }
    }

    /// Whether the lexer reads `key` (after a `#` if need be) as one word.
    static func isWord(_ key: String) -> Bool {
        guard let first = key.utf8.first, !key.unicodeScalars.contains("\u{A0}") else { return false }
        guard TokenScanner.isIdentifierStart(first) || (first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9")) else { return false }
        return key.utf8.allSatisfy(TokenScanner.isIdentifierContinue)
    }

    // MARK: - Values

    static func write(_ v: Value, to out: inout String) {
        switch v {
        case .null: out += "nil"
        case .bool(let b): out += b ? "YES" : "NO"
        case .int(let i): out += String(i)
        case .double(let d): out += formatDouble(d)
        case .decimal(let d): out += d.description
        case .string(let s): writeString(s, to: &out)
        case .date(let seconds): out += "CAST(" + formatDouble(seconds) + ", \"NSDate\")"
        case .uuid(let u): out += "CAST(\"" + u.uuidString + "\", \"NSUUID\")"
        case .data(let bytes): out += "CAST(\"" + Data(bytes).base64EncodedString() + "\", \"NSData\")"
        case .array(let items), .orderedSet(let items), .set(let items):
            out += "{"
            for (i, item) in items.enumerated() {
                if i > 0 { out += ", " }
                write(item, to: &out)
            }
            out += "}"
        case .dictionary(let d):
            // No literal syntax exists; print Apple-like description text.
            out += "{"
            for (i, key) in d.keys.sorted().enumerated() {
                if i > 0 { out += ", " }
                writeString(key, to: &out)
                out += ": "
                write(d[key]!, to: &out)
            }
            out += "}"
        case .object(let ref): out += "<object \(ref.object.printedIdentity ?? String(ObjectIdentifier(ref.object).hashValue))>"
        }
    }

    /// Shortest text that reads back as the same double, always with a `.` or
    /// exponent so it stays a double when re-parsed.
    public static func formatDouble(_ d: Double) -> String {
        if d.isNaN { return "CAST(\"nan\", \"NSNumber\")" }
        if d.isInfinite { return d < 0 ? "-1e999" : "1e999" }
        return d.description
    }

    static func writeString(_ s: String, to out: inout String) {
        out += "\""
        // Most strings need no escape: append them whole. The bytes that need
        // one are exactly those of the scalars escaped below (control
        // characters and DEL are single bytes in UTF-8).
        if !s.utf8.contains(where: { $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") || $0 < 0x20 || $0 == 0x7F }) {
            out += s
            out += "\""
            return
        }
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}
