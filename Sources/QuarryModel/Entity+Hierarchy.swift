// Entity hierarchies as inserting and fetching see them: the concrete
// (insertable) entities at or below an entity, and the one wording of the
// refusal to insert an abstract entity, shared by the context, the store's
// insert and batch insert, and the shell, so that each names the sub-entities
// the caller can insert instead (Core Data raises for an abstract entity
// without saying which ones would do).

extension Entity {
    /// The entities at or below this one that can be inserted: itself when
    /// it is not abstract, then every non-abstract descendant, depth first.
    public func concreteEntities(in model: Model) -> [Entity] {
        ([self] + allSubentities(in: model)).filter { !$0.isAbstract }
    }

    /// Why this entity cannot be inserted (nil when it can): it is abstract,
    /// with the concrete sub-entities that can be inserted instead.
    public func abstractRefusal(in model: Model) -> String? {
        guard isAbstract else { return nil }
        return Entity.abstractRefusal(name, concrete: concreteEntities(in: model).map(\.name))
    }

    /// The refusal's text for an abstract entity and its concrete sub-entities.
    public static func abstractRefusal(_ name: String, concrete: [String]) -> String {
        if concrete.isEmpty {
            return "entity '\(name)' is abstract and has no concrete sub-entities: nothing of it can be inserted"
        }
        let list = concrete.map { "'\($0)'" }
        let named = list.count == 1 ? list[0] : list.dropLast().joined(separator: ", ") + " or " + list.last!
        return "entity '\(name)' is abstract: insert one of its sub-entities, \(named)"
    }
}
