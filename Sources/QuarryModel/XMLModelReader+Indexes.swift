// Fetch indexes on to-many relationships, in Core Data model files.
//
// Xcode lets a fetch index name any property, and Core Data's model compiler
// compiles an index element on a to-many relationship (shipping apps have
// them); the SQLite store has no column to index for it and leaves it out.
// Quarry does the same: the element is dropped with a warning, and an index
// left with no element is dropped as a whole. Uniqueness constraints on a
// to-many stay an error (momc refuses those), as do indexes in YAML models.
extension XMLModelReader {
    mutating func settleIndexes(of model: inout Model) {
        let original = model
        for (e, entity) in original.entities.enumerated() {
            var kept: [FetchIndex] = []
            for index in entity.fetchIndexes {
                var elements: [FetchIndexElement] = []
                var locations: [ModelLocation?] = []
                for (i, element) in index.elements.enumerated() {
                    let path = [entity.name, "#index", index.name, String(i)]
                    if let name = element.property, let r = entity.relationship(named: name, in: original), r.isToMany {
                        warn(.structure, "index '\(index.name)' of \(entity.name): '\(name)' is a to-many relationship, "
                                + "which has no column to index; left out, as Core Data leaves it out", at: map.nearest(path))
                        continue
                    }
                    elements.append(element)
                    locations.append(map[path])
                }
                guard elements.count < index.elements.count else {
                    kept.append(index)
                    continue
                }
                // Renumber the kept elements' positions, for later messages.
                for i in 0..<index.elements.count { map[[entity.name, "#index", index.name, String(i)]] = nil }
                for (i, l) in locations.enumerated() { map[[entity.name, "#index", index.name, String(i)]] = l }
                if !elements.isEmpty {
                    var trimmed = FetchIndex(name: index.name, elements: elements)
                    trimmed.isDeclaredByProperties = index.isDeclaredByProperties
                    kept.append(trimmed)
                }
            }
            model.entities[e].fetchIndexes = kept
        }
    }
}
