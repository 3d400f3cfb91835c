// Inverses that do not point back, in Core Data model files.
//
// Xcode's editor keeps the two ends of a relationship in step, but files
// edited by hand or by merges can end up with A.r naming B.s as its inverse
// while B.s names a third relationship A.t (or none). Core Data's model
// compiler only warns about such a one-sided inverse and compiles the model;
// Quarry keeps the pair that does name each other (B.s ↔ A.t) and reads A.r
// as a relationship without an inverse, with a warning. Models built in code
// or read from YAML stay strict: validation reports the mismatch there.
//
// An inverse that names no relationship, or one that leads to an unrelated
// entity, is not settled here: validation refuses those, as momc does.
extension XMLModelReader {
    mutating func settleInverses(of model: inout Model) {
        let original = model
        for (e, entity) in original.entities.enumerated() {
            for (r, relationship) in entity.relationships.enumerated() {
                guard let inverseName = relationship.inverse,
                      let destination = original.entity(named: relationship.destination),
                      let inverse = destination.relationship(named: inverseName, in: original),
                      let inverseDestination = original.entity(named: inverse.destination),
                      inverse.inverse != relationship.name else { continue }
                let pointsHere = entity.isKind(of: inverse.destination, in: original)
                    || inverseDestination.isKind(of: entity.name, in: original)
                guard pointsHere else { continue }
                let says = inverse.inverse.map { "names '\($0)' as its inverse" } ?? "names no inverse"
                warn(.inverseMismatch,
                     "relationship '\(relationship.name)' of \(entity.name): its inverse \(destination.name).\(inverseName) \(says); "
                        + "read without an inverse, as Core Data's model compiler only warns",
                     at: map[[entity.name, relationship.name, "inverse"]])
                model.entities[e].relationships[r].inverse = nil
            }
        }
    }
}
