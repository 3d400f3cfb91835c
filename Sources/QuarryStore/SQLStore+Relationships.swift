// Relationship faults: the first time an object's relationship is read, the
// store loads it — a to-one through the foreign key the row carried (or, on
// the non-owning side of a one-to-one, by looking for the row that points
// back), a to-many with one query on the destination — and keeps one object
// per row (uniquing), so `a.department === b.department` for colleagues.

extension SQLStore {
    func registered(_ id: ObjectID) -> StoredObject? { registeredObjects[id] }

    /// The value of relationship `r` of `object`: an object, nil, or an array of objects.
    func relationshipValue(_ r: Relationship, of object: StoredObject) throws -> Value {
        guard let destinationTable = mapping.table(for: r.destination) else { return .null }
        guard let rowSelect = mapping.rowSelect(for: r.destination) else { return .null }
        let select = "SELECT " + rowSelect.sql
        let t = SQLIdentifier.quoted(destinationTable)
        let pk = object.id.primaryKey
        var sql: String
        var arguments: [Value] = []
        switch mapping.storage(of: r.name, of: object.entity) {
        case .foreignKey?:
            guard case .int(let target)? = object.foreignKey(r.name) else { return .null }
            sql = "\(select) FROM \(t) t0 WHERE t0.\(StoreMapping.quotedPrimaryKey) = ?"
            arguments = [.int(target)]
        case .inverseForeignKey(let column)?:
            sql = "\(select) FROM \(t) t0 WHERE t0.\(SQLIdentifier.quoted(column)) = ? ORDER BY "
                + mapping.orderPrefix(of: r.name, of: object.entity, alias: "t0") + "t0.\(StoreMapping.quotedPrimaryKey)"
            arguments = [.int(pk)]
        case .joinTable(let table, let source, let target)?:
            sql = "\(select) FROM \(SQLIdentifier.quoted(table)) j JOIN \(t) t0 ON t0.\(StoreMapping.quotedPrimaryKey) = j.\(SQLIdentifier.quoted(target)) WHERE j.\(SQLIdentifier.quoted(source)) = ? ORDER BY "
                + (source == StoreMapping.joinSourceColumn && mapping.joinTableIsOrdered(table) ? "j.\(StoreMapping.quotedJoinPosition), " : "") + "t0.\(StoreMapping.quotedPrimaryKey)"
            arguments = [.int(pk)]
        case nil:
            return .null
        }
        let objects = try rows(SQLFragment(sql, arguments), columns: rowSelect.columns, of: r.destination)
        if r.isToMany { return .array(objects.map { .object(ObjectReference($0)) }) }
        return objects.first.map { .object(ObjectReference($0)) } ?? .null
    }
}
