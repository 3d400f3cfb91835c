// The relationship key paths of a fetch request's
// `relationshipKeyPathsForPrefetching`, checked against the model and merged
// into a tree: `["department", "department.employees", "projects"]` becomes
// department → employees, and projects, so that a shared prefix is loaded
// once. Checking happens before the fetch runs, so a misspelt path fails at
// once with the path, the key and a "did you mean", instead of silently
// prefetching nothing (Core Data raises on such a path too).

/// One relationship to prefetch, with the paths that continue from its objects.
struct PrefetchNode {
    /// The entity whose objects the relationship is read from.
    let source: String
    let relationship: Relationship
    var children: [PrefetchNode] = []
}

enum PrefetchTree {
    /// The checked tree of `paths` starting at `entity`.
    static func build(_ paths: [String], from entity: String, in model: Model) throws -> [PrefetchNode] {
        var roots: [PrefetchNode] = []
        for (index, path) in paths.enumerated() {
            let keys = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            var current = entity
            var resolved: [(source: String, relationship: Relationship)] = []
            for key in keys {
                let r = try relationship(key, of: current, in: model, path: path, index: index)
                resolved.append((current, r))
                current = r.destination
            }
            insert(resolved[...], into: &roots)
        }
        return roots
    }

    /// The relationship `key` of `entity` (or an error naming the path).
    private static func relationship(_ key: String, of entity: String, in model: Model, path: String, index: Int) throws -> Relationship {
        guard let e = model.entity(named: entity) else {
            throw ContextError.unknownEntity(entity, suggestion: Suggestions.closest(to: entity, among: model.entityNames))
        }
        let relationships = e.allRelationships(in: model).filter { !$0.isTransient }
        if let r = relationships.first(where: { $0.name == key }) { return r }
        let suggestion = Suggestions.closest(to: key, among: relationships.map(\.name))
        let isAttribute = e.property(named: key, in: model) != nil
        throw ContextError.invalidPrefetchKeyPath(index: index, path: path, key: key, entity: entity,
                                                  reason: isAttribute ? .notARelationship : .unknownKey, suggestion: suggestion)
    }

    private static func insert(_ chain: ArraySlice<(source: String, relationship: Relationship)>, into nodes: inout [PrefetchNode]) {
        guard let first = chain.first else { return }
        if let i = nodes.firstIndex(where: { $0.source == first.source && $0.relationship.name == first.relationship.name }) {
            insert(chain.dropFirst(), into: &nodes[i].children)
        } else {
            var node = PrefetchNode(source: first.source, relationship: first.relationship)
            insert(chain.dropFirst(), into: &node.children)
            nodes.append(node)
        }
    }
}
