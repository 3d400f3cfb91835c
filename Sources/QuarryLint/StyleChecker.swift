// The style hints that need no model. QL012 (info): `LIKE` whose pattern —
// written in the format, or passed as a string literal for its `%@` — has no
// wildcard (`*`, `?`) and no escape. Such a LIKE matches exactly the strings
// `==` matches (with the same `[c]`/`[d]` flags), but reads as if it were a
// pattern and, in Core Data's SQLite fetches, runs through the pattern
// matcher instead of a plain comparison that an index can serve.

import QuarrySyntax

enum StyleChecker {
    static func check(_ tree: QueryPredicate, uses: [SpecifierUse], arguments: [CallArgument]?) -> [RawFinding] {
        var findings: [RawFinding] = []
        tree.forEachComparison { c in
            guard c.op == .like, let pattern = pattern(c.rhs, uses: uses, arguments: arguments),
                  !pattern.utf8.contains(where: { $0 == UInt8(ascii: "*") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "\\") })
            else { return }
            let flags = c.options.letters
            let equal = "==" + (flags.isEmpty ? "" : "[\(flags)]")
            findings.append(RawFinding(rule: .likeWithoutWildcards,
                                       message: "LIKE with \(Printer.format(.string(pattern))), which has no * or ?, compares whole strings",
                                       hints: ["write \(equal) to say so"], place: .format(c.rhs.span.start)))
        }
        return findings
    }

    private static func pattern(_ e: QueryExpression, uses: [SpecifierUse], arguments: [CallArgument]?) -> String? {
        switch e.kind {
        case .constant(.string(let s)): return s
        case .placeholder:
            guard let arguments, let use = uses.first(where: { $0.span.start == e.span.start }),
                  use.argument < arguments.count, case .string(let s) = arguments[use.argument].shape else { return nil }
            return s
        default: return nil
        }
    }
}
