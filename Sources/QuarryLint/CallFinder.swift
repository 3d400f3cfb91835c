// Finds the calls that take a format string — `NSPredicate(format:…)`,
// `NSExpression(format:…)`, `[NSPredicate predicateWithFormat:…]`,
// `expressionWithFormat:`, with `argumentArray:` — wherever they stand
// (a fetch request's `predicate:`, `filtered(using:)`, a compound
// predicate's parts), and block predicates handed to a fetch request. For
// each it reads the format operand and splits the arguments at top level.

/// What one argument after the format string is, as far as its text shows.
enum ArgumentShape: Sendable, Equatable {
    case string(String)
    /// An integer or floating-point literal: a C scalar, not an object.
    case number
    /// `#keyPath(…)`: a key path string the compiler checked.
    case keyPathLiteral
    case nilLiteral
    /// A scalar boolean (`true`, `YES`): not an object in a variadic call.
    case bool
    case other
}

struct CallArgument: Sendable {
    var shape: ArgumentShape
    /// Source offset of the argument's first token.
    var start: Int
}

struct FormatCall: Sendable {
    enum Kind: Sendable { case predicate, expression, blockPredicate }
    var kind: Kind
    /// Index of the call's name token (`NSPredicate`, `predicateWithFormat`).
    var tokenIndex: Int
    /// Source offset where the call starts (for positions and directives).
    var start: Int
    /// The format literal, nil when the format is not a literal at all.
    var format: DecodedLiteral?
    /// The arguments after the format, nil when unknown (`arguments:` va_list,
    /// a non-literal `argumentArray:`).
    var arguments: [CallArgument]?
}

struct CallFinder {
    let file: SourceFile
    let scanned: ScannedFile
    var tokens: [SourceToken] { scanned.tokens }

    func text(_ i: Int) -> Substring {
        guard i >= 0, i < tokens.count else { return "" }
        let t = tokens[i]
        return Substring(decoding: file.bytes[t.start..<t.end], as: UTF8.self)
    }

    func isPunct(_ i: Int, _ c: Character) -> Bool {
        guard i >= 0, i < tokens.count, case .punctuation(let p) = tokens[i].kind else { return false }
        return p == c.asciiValue!
    }

    /// Compares bytes in place: this runs for every identifier of every file.
    func isIdent(_ i: Int, _ name: String) -> Bool {
        guard i >= 0, i < tokens.count, tokens[i].kind == .identifier else { return false }
        let t = tokens[i]
        var utf8 = name.utf8.makeIterator()
        var p = t.start
        while let c = utf8.next() {
            guard p < t.end, file.bytes[p] == c else { return false }
            p += 1
        }
        return p == t.end
    }

    /// Lengths of the identifiers that can start something the finder looks
    /// for, so that most identifiers are passed over without being decoded.
    static let interestingLengths: Set<Int> = Set(["NSPredicate", "NSExpression", "predicateWithFormat", "predicateWithBlock",
                                                   "expressionWithFormat", "NSFetchRequest", "FetchRequest", "fetchRequestWithEntityName",
                                                   "initWithEntityName", "entityForName"].map(\.utf8.count))

    func calls() -> [FormatCall] {
        var out: [FormatCall] = []
        var i = 0
        while i < tokens.count {
            defer { i += 1 }
            guard tokens[i].kind == .identifier,
                  Self.interestingLengths.contains(tokens[i].end - tokens[i].start) else { continue }
            let name = text(i)
            switch name {
            case "NSPredicate", "NSExpression":
                var open = i + 1
                if isPunct(open, "."), isIdent(open + 1, "init") { open += 2 }
                if name == "NSPredicate", isPunct(open, "{") || (isPunct(open, "(") && isIdent(open + 1, "block")) {
                    out.append(FormatCall(kind: .blockPredicate, tokenIndex: i, start: tokens[i].start))
                    continue
                }
                guard isPunct(open, "("), isIdent(open + 1, "format"), isPunct(open + 2, ":") else { continue }
                out.append(call(name == "NSPredicate" ? .predicate : .expression, at: i, formatAt: open + 3, closer: ")"))
            case "predicateWithFormat", "expressionWithFormat":
                guard isPunct(i + 1, ":") else { continue }
                out.append(call(name == "predicateWithFormat" ? .predicate : .expression, at: i, formatAt: i + 2, closer: "]"))
            case "predicateWithBlock":
                if isPunct(i + 1, ":") { out.append(FormatCall(kind: .blockPredicate, tokenIndex: i, start: tokens[i].start)) }
            default:
                break
            }
        }
        return out
    }

    /// Reads the format operand at token `f` and the arguments up to the
    /// call's closing bracket.
    private func call(_ kind: FormatCall.Kind, at i: Int, formatAt f: Int, closer: Character) -> FormatCall {
        var result = FormatCall(kind: kind, tokenIndex: i, start: tokens[i].start)
        var next = f
        if f < tokens.count, case .string(let index) = tokens[f].kind {
            var literal = scanned.literals[index]
            next = f + 1
            // `"a" + "b"` is still constant; `"a" + x` is not.
            while isPunct(next, "+") {
                if next + 1 < tokens.count, case .string(let more) = tokens[next + 1].kind {
                    literal.join(scanned.literals[more])
                    next += 2
                } else {
                    literal.notConstant = literal.notConstant ?? "concatenated with a value that is not a literal"
                    next = skipOperand(from: next + 1)
                }
            }
            // `@"a" MACRO`, `"a".lowercased()`: the string is not just the literal.
            let ends = next >= tokens.count || isPunct(next, ",") || isPunct(next, String(closer).first!)
                || isIdent(next, "argumentArray") || isIdent(next, "arguments")
            if !ends { literal.notConstant = literal.notConstant ?? "followed by something that is not a literal" }
            result.format = literal
        } else {
            next = skipOperand(from: f)
        }
        // Arguments: `, a, b` up to the closing bracket, or `argumentArray:`.
        let groups = splitArguments(from: next, closer: closer)
        if let first = groups.first, isIdent(first.lowerBound, "argumentArray"), isPunct(first.lowerBound + 1, ":") {
            let array = first.lowerBound + 2
            let opener = isPunct(array, "@") ? array + 1 : array
            if isPunct(opener, "[") {
                // Array elements are objects: Swift bridges `5` and `true` to NSNumber.
                result.arguments = splitArguments(from: opener + 1, closer: "]", leadingComma: false).map { range in
                    var a = argument(range)
                    if a.shape == .number || a.shape == .bool { a.shape = .other }
                    return a
                }
            }
        } else if let first = groups.first, isIdent(first.lowerBound, "arguments"), isPunct(first.lowerBound + 1, ":") {
            result.arguments = nil
        } else {
            result.arguments = groups.map(argument)
        }
        return result
    }

    /// Skips one operand (to the next `,`, `+` or closing bracket at this depth).
    private func skipOperand(from start: Int) -> Int {
        var depth = 0
        var i = start
        while i < tokens.count {
            if case .punctuation(let c) = tokens[i].kind {
                switch c {
                case UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: "{"): depth += 1
                case UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "}"):
                    if depth == 0 { return i }
                    depth -= 1
                case UInt8(ascii: ","), UInt8(ascii: "+"), UInt8(ascii: ";"):
                    if depth == 0 { return i }
                default: break
                }
            }
            i += 1
        }
        return i
    }

    /// Token ranges of the comma-separated arguments from `start` to the
    /// unmatched closing bracket. With `leadingComma`, text before the first
    /// comma (the format operand's tail) is not an argument.
    func splitArguments(from start: Int, closer: Character, leadingComma: Bool = true) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var depth = 0
        var i = start
        var argumentStart: Int? = leadingComma ? nil : start
        while i < tokens.count {
            if case .punctuation(let c) = tokens[i].kind {
                switch c {
                case UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: "{"): depth += 1
                case UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "}"):
                    if depth == 0 {
                        if let s = argumentStart, s < i { ranges.append(s..<i) }
                        return ranges
                    }
                    depth -= 1
                case UInt8(ascii: ","):
                    if depth == 0 {
                        if let s = argumentStart, s < i { ranges.append(s..<i) }
                        argumentStart = i + 1
                    }
                case UInt8(ascii: ";"):
                    return ranges  // a statement ended: the call was malformed
                default: break
                }
            } else if argumentStart == nil && leadingComma && depth == 0 && tokens[i].kind == .identifier {
                // ObjC `predicateWithFormat:@"…" argumentArray:@[…]` has no comma.
                if text(i) == "argumentArray" || text(i) == "arguments" { argumentStart = i }
            }
            i += 1
        }
        return ranges
    }

    /// What an argument's tokens show it to be.
    private func argument(_ range: Range<Int>) -> CallArgument {
        let first = range.lowerBound
        let start = tokens[first].start
        var shape = ArgumentShape.other
        if range.count == 1 {
            switch tokens[first].kind {
            case .string(let index):
                let literal = scanned.literals[index]
                if literal.notConstant == nil { shape = .string(literal.text) }
            case .number: shape = .number
            case .identifier:
                switch text(first) {
                case "nil", "NULL", "Nil": shape = .nilLiteral
                case "true", "false", "YES", "NO": shape = .bool
                default: break
                }
            default: break
            }
        } else if range.count == 2, isPunct(first, "-"), tokens[first + 1].kind == .number {
            shape = .number
        } else if isPunct(first, "#"), isIdent(first + 1, "keyPath") {
            shape = .keyPathLiteral
        }
        return CallArgument(shape: shape, start: start)
    }
}
