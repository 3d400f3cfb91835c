// `UPDATE … SET toOne = %@` where the relationship is one-to-one (its
// inverse is to-one too): a target object can have one partner, so the
// update keeps both sides consistent, as setting the relationship in a
// context would — the object that held the target before lets go of it
// (its foreign key becomes nil) — or refuses, before anything is written,
// when that cannot be right: the update would give one target to several
// objects, or the old partner's side is required.
//
// (A one-to-one kept on the other side's row is refused earlier, in
// `plannedUpdate`: "set it there".)

extension ShellSession {
    /// A to-one foreign key an UPDATE writes: the relationship, where the
    /// statement names it, the column, and the object it will point at.
    struct ToOneLink {
        let relationship: Relationship
        let key: Name
        let column: String
        let target: ObjectID?
    }

    /// Clears the foreign key of the objects (other than `ids`) that hold a
    /// one-to-one target the update gives away; returns their IDs. Throws
    /// the refusal, in the model's words, when the update cannot keep the
    /// relationship one-to-one.
    func releaseOneToOnePartners(_ links: [ToOneLink], of ids: [ObjectID], entity e: Entity, in s: SQLStore) throws -> [ObjectID] {
        let model = s.model
        var released: [ObjectID] = []
        guard !ids.isEmpty, let table = s.mapping.table(for: e.name) else { return [] }
        for link in links {
            guard let target = link.target, let inverse = link.relationship.inverse,
                  let destination = model.entity(named: link.relationship.destination),
                  let back = destination.relationship(named: inverse, in: model), !back.isToMany else { continue }
            func refuse(_ message: String) -> ShellError {
                var error = ShellError(.constraintFailed, "\(e.name).\(link.relationship.name) is one-to-one (\(destination.name).\(inverse)); " + message
                                       + "; nothing was written", at: link.key.span)
                error.exitCode = ExitStatus.statementFailed
                return error
            }
            if ids.count > 1 { throw refuse("the update would give \(target) to \(ids.count) objects") }
            let column = SQLIdentifier.quoted(link.column), key = SQLIdentifier.quoted(StoreMapping.primaryKey)
            let holders = try s.database.rows("SELECT \(key), \(SQLIdentifier.quoted(StoreMapping.entityColumn)) FROM \(SQLIdentifier.quoted(table)) WHERE \(column) = ? AND \(key) <> ?",
                                              [.int(target.primaryKey), .int(ids[0].primaryKey)], as: [.int, .string])
            let others = holders.compactMap { row -> ObjectID? in
                guard case .int(let pk) = row[0], case .string(let entity) = row[1] else { return nil }
                return ObjectID(entity: entity, primaryKey: pk)
            }
            guard let holder = others.first else { continue }
            if !link.relationship.isOptional {
                throw refuse("\(target) belongs to \(holder), whose \(link.relationship.name) is required")
            }
            try s.database.run("UPDATE \(SQLIdentifier.quoted(table)) SET \(column) = NULL\(s.mapping.versionIncrementSuffix()) WHERE \(column) = ? AND \(key) <> ?",
                               [.int(target.primaryKey), .int(ids[0].primaryKey)])
            released += others
        }
        if !released.isEmpty { s.forgetObjects() }
        return released
    }
}
