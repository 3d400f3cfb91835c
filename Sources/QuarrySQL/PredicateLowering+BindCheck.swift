// Bind errors in the parts of a predicate that lowering gave up on. Lowering
// stops at the first thing SQL cannot run (`.unsupported`: a registered
// FUNCTION, `**`, a MATCHES pattern PostgreSQL's regular expressions read
// differently...) and leaves the whole conjunct to memory — and a misspelt
// key further on would then never be bound: `name MATCHES[c] 'j.*' OR
// department.nosuch == 1` was B002 on SQLite and a quiet nil on PostgreSQL,
// whose dialect keeps MATCHES[c] in memory. So a conjunct that becomes a
// residual goes through the binding pass (QuarryBinding's PredicateBinder,
// over the mapping's key index), which resolves every key path in it with
// the KeyPathBinder lowering itself uses: the same first error on every
// dialect and on the memory engine.
import QuarryModel

extension PredicateLowerer {
    /// Throws the first bind error in `p`, ignoring what SQL cannot run.
    func bindCheck(_ p: QueryPredicate) throws(Diagnostic) {
        try PredicateBinder(binder: KeyPathBinder(index: context.mapped), entity: level.entity).check(p)
    }
}

/// The mapping's per-entity index answers binding's lookups (one dictionary
/// probe per key, columns already quoted).
extension MappedModel: KeyIndex {
    func hasEntity(_ name: String) -> Bool { entities[name] != nil }

    func indexedKey(_ name: String, of entity: String) -> IndexedKey? {
        guard let k = entities[entity]?.keys[name] else { return nil }
        if let destination = k.destination { return .relationship(destination: destination, isToMany: k.isToMany) }
        if case .attribute(let a) = k.property { return .attribute(a, column: k.quotedColumn) }
        return .other
    }

    func property(_ name: String, of entity: String) -> Property? { entities[entity]?.keys[name]?.property }
}
