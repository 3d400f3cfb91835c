// Argument substitution: `%@ %K %d %f %s %c ...` and positional `%2$@` take
// their values from the caller's argument list while the text is parsed, so
// a string inserted by `%@` is a constant and never a key path, and `%K`
// inserts a key path, never a value. With no argument list (parse-only) the
// specifiers stay in the tree as placeholders.

extension Parser {
    /// The next argument for a specifier, or nil in parse-only mode.
    mutating func argument(for spec: FormatSpecifier, token: Token) throws(Diagnostic) -> Value? {
        guard let arguments else { return nil }
        let index: Int
        if let position = spec.position {
            index = position - 1
            highestPositional = Swift.max(highestPositional, position)
        } else {
            index = nextArgument
            nextArgument += 1
        }
        guard index < arguments.count else {
            let given = arguments.count == 1 ? "1 argument was given" : "\(arguments.count) arguments were given"
            throw Diagnostic(.missingArgument, "no argument for \(text(token)) (argument \(index + 1)); \(given)",
                             at: token.span, hints: ["pass one value per specifier, in order"], stage: .input)
        }
        return arguments[index]
    }

    /// An expression for a specifier in value position.
    mutating func substitute(_ spec: FormatSpecifier, token: Token) throws(Diagnostic) -> QueryExpression {
        if spec.category == .keyPath {
            let path = try keyPathArgument(spec, token: token)
            return QueryExpression(.keyPath(base: nil, path: path), span: token.span)
        }
        guard let value = try argument(for: spec, token: token) else {
            return QueryExpression(.placeholder(text(token)), span: token.span)
        }
        return QueryExpression(.constant(try coerce(value, to: spec, token: token)), span: token.span)
    }

    /// The key path components a `%K` inserts. In parse-only mode the
    /// specifier itself stays as one component, so `%K.%K` prints back as written.
    mutating func keyPathArgument(_ spec: FormatSpecifier, token: Token) throws(Diagnostic) -> [String] {
        guard let value = try argument(for: spec, token: token) else { return [text(token)] }
        guard case .string(let path) = value, !path.isEmpty else {
            throw Diagnostic(.keyPathArgumentNotString, "%K needs a key path string, but argument is \(value.typeName)",
                             at: token.span, hints: ["use %@ to insert a value"], stage: .input)
        }
        let components = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        // A component starting with `$` or `%` would be read as a variable or
        // a specifier (see `escapedKey`): refused, not evaluated as another key.
        if let odd = components.first(where: { $0.utf8.first == UInt8(ascii: "$") || $0.utf8.first == UInt8(ascii: "%") }) {
            throw Diagnostic(.keyPathArgumentNotString,
                             "%K's argument \"\(path)\" has the key \"\(odd)\", which starts with '\(odd.prefix(1))' as a \(odd.hasPrefix("$") ? "variable" : "format specifier") does",
                             at: token.span, hints: ["a key cannot start with '$' or '%'; use $name in the format string for a variable"], stage: .input)
        }
        return components
    }

    /// printf-style specifiers convert their argument the way C would read it.
    func coerce(_ value: Value, to spec: FormatSpecifier, token: Token) throws(Diagnostic) -> Value {
        func mismatch() -> Diagnostic {
            Diagnostic(.argumentTypeMismatch, "\(text(token)) needs \(Parser.describe(spec.category)), but the argument is \(value.typeName)",
                       at: token.span, hints: ["use %@ to insert any value as it is"], stage: .input)
        }
        switch spec.category {
        case .object, .keyPath, .pointer:
            return value
        case .integer:
            switch value {
            case .int: return value
            case .bool(let b): return .int(b ? 1 : 0)
            case .double(let d) where d.isFinite && d.magnitude < 9.2e18: return .int(Int64(d))
            default: throw mismatch()
            }
        case .floatingPoint:
            switch value {
            case .double: return value
            case .int(let i): return .double(Double(i))
            case .bool(let b): return .double(b ? 1 : 0)
            default: throw mismatch()
            }
        case .string:
            guard case .string = value else { throw mismatch() }
            return value
        case .character:
            switch value {
            case .string(let s) where s.count == 1: return value
            case .int(let i):
                guard let scalar = Unicode.Scalar(UInt32(truncatingIfNeeded: i)) else { throw mismatch() }
                return .string(String(Character(scalar)))
            default: throw mismatch()
            }
        }
    }

    static func describe(_ category: SpecifierCategory) -> String {
        switch category {
        case .object: return "a value"
        case .keyPath: return "a key path"
        case .integer: return "an integer"
        case .floatingPoint: return "a number"
        case .character: return "a character"
        case .string: return "a string"
        case .pointer: return "a pointer"
        }
    }

    /// After a successful parse: more arguments than specifiers is an error
    /// unless the caller asked for Apple's leniency (C varargs cannot tell).
    /// (`mutating` only so that the check reads the parser in place.)
    @inline(__always) mutating func checkArgumentCount() throws(Diagnostic) {
        guard let arguments, !allowsExtraArguments, arguments.count > argumentUse.used else { return }
        try reportExtraArguments(given: arguments.count)
    }

    func reportExtraArguments(given: Int) throws(Diagnostic) {
        // The hint needs every string literal's value, which the parser does
        // not keep: lex the text again, on this error path only.
        let strings = (try? Lexer.tokenize(sourceText).strings) ?? []
        if let extra = Parser.extraArguments(given: given, use: argumentUse,
                                             span: SourceSpan(start: 0, end: bytes.count), strings: strings) {
            throw extra
        }
    }

    static func quotedSpecifier(in strings: [String]) -> Bool {
        strings.contains { s in ["%@", "%K", "%d", "%i", "%f", "%s"].contains { s.contains($0) } }
    }
}
