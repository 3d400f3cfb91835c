// Bind errors in the parts of a predicate that lowering gave up on. Lowering
// stops at the first thing SQL cannot run (`.unsupported`: a registered
// FUNCTION, `**`, a MATCHES pattern PostgreSQL's regular expressions read
// differently...) and leaves the whole conjunct to memory — and a misspelt
// key further on would then never be bound: `name MATCHES[c] 'j.*' OR
// department.nosuch == 1` was B002 on SQLite and a quiet nil on PostgreSQL,
// whose dialect keeps MATCHES[c] in memory. So a conjunct that becomes a
// residual is walked once more, every key path in it lowered on its own in
// a scratch context (the real plan gets no extra joins), and the first bind
// error is reported: the same one on every dialect and on the memory engine.
import QuarryModel

extension PredicateLowerer {
    /// Throws the first bind error in `p`, ignoring what SQL cannot run.
    func bindCheck(_ p: Predicate) throws(Diagnostic) {
        let scratch = context.scratch()
        let checker = PredicateLowerer(context: scratch, level: scratch.newLevel(entity: level.entity))
        try checker.checkBinding(p)
    }

    private func checkBinding(_ p: Predicate) throws(Diagnostic) {
        switch p.kind {
        case .constant: return
        case .not(let x): try checkBinding(x)
        case .and(let parts), .or(let parts): for part in parts { try checkBinding(part) }
        case .comparison(let c):
            try checkBinding(c.lhs)
            try checkBinding(c.rhs)
        }
    }

    private func checkBinding(_ e: Expression) throws(Diagnostic) {
        do { _ = try operand(e) } catch {
            switch error {
            case .bind(let d): throw d
            case .unsupported: break
            }
        }
        switch e.kind {
        case .binary(_, let l, let r), .setOperation(_, let l, let r):
            try checkBinding(l)
            try checkBinding(r)
        case .unary(_, let x), .cast(let x, _), .assignment(_, let x), .index(let x, _):
            try checkBinding(x)
        case .function(_, let args), .aggregate(let args):
            for a in args { try checkBinding(a) }
        case .functionCall(let receiver, _, let args):
            try checkBinding(receiver)
            for a in args { try checkBinding(a) }
        case .ternary(let p, let a, let b):
            try checkBinding(p)
            try checkBinding(a)
            try checkBinding(b)
        case .keyPath(let base?, _):
            guard case .subquery(let collection, let variable, let predicate) = base.kind else { return try checkBinding(base) }
            try checkBinding(collection)
            // The predicate with the variable bound to the collection's rows.
            guard case .toMany(let bound, let alias, let entity)? = try? operand(collection),
                  let path = try? collectionLevel(bound, from: alias, entity: entity) else { return }
            var inner = PredicateLowerer(context: context, level: level, variables: variables)
            inner.variables[variable] = VariableBinding(alias: path.elementAlias, entity: path.elementEntity)
            try inner.checkBinding(predicate)
        default:
            return
        }
    }
}

extension LoweringContext {
    /// A fresh context over the same mapping, for lowering that is thrown away.
    func scratch() -> LoweringContext { LoweringContext(mapped: mapped, dialect: dialect, now: now) }
}
