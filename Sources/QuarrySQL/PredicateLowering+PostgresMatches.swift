// MATCHES on PostgreSQL. Apple's MATCHES is an ICU regular expression that
// must match the whole string; PostgreSQL's `~` runs its own (Spencer/Tcl)
// engine. `PostgresRegex.translate` rewrites the patterns whose meaning is
// the same on both; anything else (a pattern from a column, a construct with
// no exact equivalent) is left to memory as a residual, so results never
// differ — only where the work happens does.

extension PredicateLowerer {
    func postgresMatches(_ subject: Operand, _ pattern: Operand, _ folding: Folding) throws(LoweringError) -> SQLCondition {
        guard case .constant(.string(let text)) = pattern else {
            if case .constant = pattern { return .alwaysFalse }
            throw .unsupported("MATCHES with a pattern that is not a constant string")
        }
        switch subject {
        case .constant(let v):
            guard case .string = v else { return .alwaysFalse }
            throw .unsupported("MATCHES of two constants")
        case .scalar(let f, let type, _):
            if let type, type != .string && type != .uri { return .alwaysFalse }
            // [c]: ICU folds case code point by code point of the stored
            // (NFC) text, while quarry_fold composes its result again, and a
            // few folds decompose ("J\u{30C}" folds to ǰ, which `j.*` does not
            // match): case-insensitive patterns run in memory.
            guard !folding.caseInsensitive, let translated = PostgresRegex.translate(text, folding: folding) else {
                throw .unsupported("a MATCHES pattern PostgreSQL would read differently")
            }
            let folded = folding.isNone ? f : QuarrySQLFunction.fold.call(f, flags: flags(folding))
            return SQLCondition(fragment: folded + SQLFragment(" ~ ?", [.string(translated)]), nullable: true)
        default:
            return .alwaysFalse
        }
    }
}
