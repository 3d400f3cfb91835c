// How a specialised comparison reads its left side. The common left sides —
// one plain key (`salary`) or two (`department.name`) read from SELF — are
// read inline by the comparison's own closure; anything else goes through the
// compiled expression's closure. The specialised comparisons are generic over
// the reader, so the optimiser builds one copy per reader and a plain key
// path costs no closure call, no thunk and no extra copy of the value.
//
// The readers call the same `KeyAccess.value` as the general key path
// closures, so the answers (nil propagation, errors and their spans) are
// those of the general path.

protocol ValueReader: Sendable {
    func read(_ object: Value, _ env: Env) throws(Diagnostic) -> Value
}

/// One plain key from SELF.
struct KeyReader: ValueReader {
    let key: String
    let span: SourceSpan

    @inline(__always)
    func read(_ object: Value, _ env: Env) throws(Diagnostic) -> Value {
        try KeyAccess.value(of: object, key: key, span: span)
    }
}

/// Two plain keys from SELF.
struct KeyPairReader: ValueReader {
    let first: String
    let second: String
    let span: SourceSpan

    @inline(__always)
    func read(_ object: Value, _ env: Env) throws(Diagnostic) -> Value {
        try KeyAccess.value(of: try KeyAccess.value(of: object, key: first, span: span), key: second, span: span)
    }
}

/// Any other expression: its compiled closure.
struct ClosureReader: ValueReader {
    let closure: ValueClosure

    @inline(__always)
    func read(_ object: Value, _ env: Env) throws(Diagnostic) -> Value {
        try closure(object, env)
    }
}

extension QueryExpression {
    /// The keys of a path of one or two plain keys from SELF (no base, no
    /// `$variable`, no `@operator`), the paths a reader reads inline.
    var plainKeys: [String]? {
        guard case .keyPath(nil, let path) = kind, path.count == 1 || path.count == 2,
              !path.contains(where: { $0.hasPrefix("$") || $0.hasPrefix("@") }) else { return nil }
        return path
    }
}
