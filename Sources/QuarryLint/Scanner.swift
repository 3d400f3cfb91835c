// A tokenizer for Swift and Objective-C just deep enough to find calls:
// identifiers, numbers, punctuation and decoded string literals, with
// comments skipped (and `quarry-lint:` directives collected from them). It
// does not understand the languages beyond that; the call matcher works on
// its tokens. Linear in the file size, one pass, no recursion.

struct SourceToken: Sendable {
    enum Kind: Sendable, Equatable {
        case identifier
        /// Index into `ScannedFile.literals`.
        case string(Int)
        case number
        case punctuation(UInt8)
    }
    var kind: Kind
    var start: Int
    var end: Int
}

/// A `// quarry-lint:…` comment.
struct Directive: Sendable {
    enum Kind: Sendable { case disable, disableNextLine, disableFile, entity }
    var kind: Kind
    /// Rule ids (empty: every rule) or, for `entity`, the entity name.
    var words: [String]
    var line: Int
}

struct ScannedFile: Sendable {
    var tokens: [SourceToken] = []
    var literals: [DecodedLiteral] = []
    var directives: [Directive] = []
}

enum Scanner {
    static func scan(_ file: SourceFile) -> ScannedFile {
        var out = ScannedFile()
        let b = file.bytes
        let swift = file.language == .swift
        var p = 0
        while p < b.count {
            let c = b[p]
            switch c {
            case 0x20, 0x09, 0x0A, 0x0D, 0x0B, 0x0C:
                p += 1
            case UInt8(ascii: "/") where p + 1 < b.count && b[p + 1] == UInt8(ascii: "/"):
                var e = p
                while e < b.count && b[e] != 0x0A { e += 1 }
                if let directive = directive(in: b[p..<e], line: file.line(of: p)) { out.directives.append(directive) }
                p = e
            case UInt8(ascii: "/") where p + 1 < b.count && b[p + 1] == UInt8(ascii: "*"):
                p = skipBlockComment(b, from: p, nested: swift)
            case UInt8(ascii: "\""):
                p = literal(b, at: p, swift: swift, into: &out)
            case UInt8(ascii: "#") where swift && rawStringFollows(b, p):
                p = literal(b, at: p, swift: true, into: &out)
            case UInt8(ascii: "@") where !swift && p + 1 < b.count && b[p + 1] == UInt8(ascii: "\""):
                p = literal(b, at: p, swift: false, into: &out)
            case UInt8(ascii: "'") where !swift:
                // A C character literal: skip it, escapes included, within the line.
                var e = p + 1
                while e < b.count && b[e] != UInt8(ascii: "'") && b[e] != 0x0A { e += b[e] == UInt8(ascii: "\\") ? 2 : 1 }
                p = min(e + 1, b.count)
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                var e = p + 1
                while e < b.count, isIdentifierByte(b[e]) || (b[e] == UInt8(ascii: ".") && e + 1 < b.count && isDigit(b[e + 1])) { e += 1 }
                out.tokens.append(SourceToken(kind: .number, start: p, end: e))
                p = e
            default:
                if isIdentifierStart(c) {
                    var e = p + 1
                    while e < b.count && isIdentifierByte(b[e]) { e += 1 }
                    out.tokens.append(SourceToken(kind: .identifier, start: p, end: e))
                    p = e
                } else {
                    out.tokens.append(SourceToken(kind: .punctuation(c), start: p, end: p + 1))
                    p += 1
                }
            }
        }
        return out
    }

    private static func literal(_ b: [UInt8], at p: Int, swift: Bool, into out: inout ScannedFile) -> Int {
        let (literal, end) = swift ? SwiftLiteralReader.read(b, at: p) : ObjCLiteralReader.read(b, at: p)
        out.tokens.append(SourceToken(kind: .string(out.literals.count), start: p, end: end))
        out.literals.append(literal)
        return max(end, p + 1)
    }

    private static func rawStringFollows(_ b: [UInt8], _ p: Int) -> Bool {
        var e = p
        while e < b.count && b[e] == UInt8(ascii: "#") { e += 1 }
        return e < b.count && b[e] == UInt8(ascii: "\"")
    }

    static func isDigit(_ c: UInt8) -> Bool { c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") }
    static func isIdentifierStart(_ c: UInt8) -> Bool {
        (c >= UInt8(ascii: "a") && c <= UInt8(ascii: "z")) || (c >= UInt8(ascii: "A") && c <= UInt8(ascii: "Z"))
            || c == UInt8(ascii: "_") || c == UInt8(ascii: "$") || c >= 0x80
    }
    static func isIdentifierByte(_ c: UInt8) -> Bool { isIdentifierStart(c) || isDigit(c) }

    /// Skips `/* … */` (nested in Swift); an unterminated comment ends the file.
    static func skipBlockComment(_ b: [UInt8], from start: Int, nested: Bool) -> Int {
        var depth = 0
        var p = start
        while p + 1 < b.count {
            if b[p] == UInt8(ascii: "/") && b[p + 1] == UInt8(ascii: "*") && (nested || depth == 0) {
                depth += 1; p += 2
            } else if b[p] == UInt8(ascii: "*") && b[p + 1] == UInt8(ascii: "/") {
                depth -= 1; p += 2
                if depth == 0 { return p }
            } else {
                p += 1
            }
        }
        return b.count
    }

    /// Whitespace and comments from `start`: the offset of the next real text.
    static func skipTrivia(_ b: [UInt8], from start: Int, nestedComments: Bool) -> Int {
        var p = start
        while p < b.count {
            if b[p] == 0x20 || b[p] == 0x09 || b[p] == 0x0A || b[p] == 0x0D { p += 1; continue }
            if b[p] == UInt8(ascii: "/"), p + 1 < b.count {
                if b[p + 1] == UInt8(ascii: "/") {
                    while p < b.count && b[p] != 0x0A { p += 1 }
                    continue
                }
                if b[p + 1] == UInt8(ascii: "*") { p = skipBlockComment(b, from: p, nested: nestedComments); continue }
            }
            break
        }
        return p
    }

    /// `quarry-lint:disable QL001,QL004`, `disable-next-line`, `disable-file`, `entity Name`.
    static func directive(in comment: ArraySlice<UInt8>, line: Int) -> Directive? {
        let text = String(decoding: comment, as: UTF8.self)
        guard let range = text.range(of: "quarry-lint:") else { return nil }
        let words = text[range.upperBound...].split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\t" || $0 == "\r" })
            .map(String.init)
        guard let verb = words.first else { return nil }
        let rest = Array(words.dropFirst())
        switch verb {
        case "disable": return Directive(kind: .disable, words: rest, line: line)
        case "disable-next-line": return Directive(kind: .disableNextLine, words: rest, line: line)
        case "disable-file": return Directive(kind: .disableFile, words: rest, line: line)
        case "entity": return rest.isEmpty ? nil : Directive(kind: .entity, words: [rest[0]], line: line)
        default: return nil
        }
    }
}
