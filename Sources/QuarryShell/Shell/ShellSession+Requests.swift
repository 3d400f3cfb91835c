// The statements that map onto the store's request kinds beyond plain
// fetches: dictionary fetches (PROPERTIES, GROUP BY, HAVING, DISTINCT),
// batch updates and deletes, and EXPLAIN, which shows what a statement
// becomes — its canonical form, the SQL with its bound arguments, the part
// left to run in memory, and SQLite's query plan.
import Foundation

extension ShellSession {
    func fetchProperties(_ f: FetchStatement, _ base: FetchRequest) throws(ShellError) -> ResultSet {
        let model = try currentModel()
        if let e = model.entity(named: base.entity), readsFetchedProperty(f, e, model) { return try fetchPropertiesThroughContext(f, base) }
        var request = base
        try fillDictionaryRequest(&request, f)
        let rows = try storeCall { s in try s.fetchDictionaries(request, engine: engine) }
        let columns = request.propertiesToFetch.map(\.name)
        return ResultSet(columns: columns, rows: rows.map { row in columns.map { row[$0] ?? .null } })
    }

    func fillDictionaryRequest(_ request: inout FetchRequest, _ f: FetchStatement) throws(ShellError) {
        func property(_ item: PropertyItem) throws(ShellError) -> FetchProperty {
            do { return FetchProperty(name: item.name, expression: try item.expression.substituting(variables)) } catch { throw ShellError(error) }
        }
        var properties: [FetchProperty] = []
        for item in f.properties.isEmpty ? f.groupBy : f.properties { properties.append(try property(item)) }
        request.propertiesToFetch = properties
        var groups: [FetchProperty] = []
        for item in f.groupBy { groups.append(try property(item)) }
        request.propertiesToGroupBy = groups
        request.havingPredicate = try substitute(f.having)
        request.returnsDistinctResults = f.distinct
    }

    /// `UPDATE Entity SET key = value, ... [WHERE p]`: a batch update (no
    /// validation, as in Core Data), but constants are checked against
    /// their attribute's type and range first, a uniqueness constraint is
    /// checked before the database would refuse it, and a to-one
    /// relationship may be set from an object reference (its foreign key
    /// written for every selected object) — all in one transaction.
    func batchUpdate(_ name: Name, _ assignments: [(key: Name, value: QueryExpression)], _ predicate: QueryPredicate?) throws(ShellError) -> Int {
        let (attributeSet, changeLinks, p) = try plannedUpdate(name, assignments, predicate)
        let entityName = name.text
        let e = try entity(name)
        // A computed value out of its type's range, pointed at where it is set.
        func located(_ message: String, key: String?) -> ShellError {
            let span = assignments.first { $0.key.text == key }?.key.span ?? name.span
            return ShellError(.validationFailed, message, at: span, exitCode: ExitStatus.statementFailed)
        }
        let computedIntegers = assignments.filter { a in
            if case .constant = a.value.kind { return false }
            return (try? currentModel()).flatMap { m in m.entity(named: entityName)?.attribute(named: a.key.text, in: m)?.type.integerRange } != nil
        }
        return try storeCall { s in
            defer { s.finishExternalWrites() }   // the files its rows no longer name go after COMMIT
            do {
                return try s.database.inTransaction {
                    // The objects selected before any attribute changes what the predicate selects.
                    let ids = changeLinks.isEmpty ? [] : try s.fetch(FetchRequest(entity: entityName, predicate: p)).map(\.id)
                    var n = ids.count
                    // One-to-one: the target's old partner lets go first (or the update is refused).
                    let released = try releaseOneToOnePartners(changeLinks, of: ids, entity: e, in: s)
                    if !attributeSet.isEmpty {
                        // Under a watch, the objects it touched are merged into the watch's context.
                        n = try watch.map { try $0.batchUpdate(s, entity: entityName, predicate: p, set: attributeSet) }
                            ?? s.batchUpdate(entity: entityName, predicate: p, set: attributeSet)
                    }
                    if !changeLinks.isEmpty {
                        try setToOne(changeLinks, of: ids, entity: entityName, in: s)
                        watch?.context.merge(changes: ContextChanges(updated: Set(ids + released)))
                    }
                    return n
                }
            } catch let e as StoreError {
                guard case .outOfRange(let key, _, _, _, _) = e else { throw e }
                throw located(e.description, key: key)
            } catch where s.database.isValueOutOfRange(error) && !computedIntegers.isEmpty {
                let keys = computedIntegers.map { "\(entityName).\($0.key.text)" }.joined(separator: " or ")
                throw located("\(keys): the computed value does not fit the attribute's type; nothing was written", key: computedIntegers[0].key.text)
            }
        }
    }

    /// What an UPDATE does, checked (UPDATE and EXPLAIN UPDATE share it):
    /// the attribute assignments with constants converted and checked, the
    /// to-one foreign keys to write, and the predicate.
    func plannedUpdate(_ name: Name, _ assignments: [(key: Name, value: QueryExpression)], _ predicate: QueryPredicate?) throws(ShellError)
        -> (set: [(String, QueryExpression)], links: [ToOneLink], predicate: QueryPredicate?) {
        let e = try entity(name)
        let model = try currentModel()
        let s = try store()
        var set: [(String, QueryExpression)] = []
        var constants: [(key: Name, value: Value?)] = []
        var links: [ToOneLink] = []
        for (key, value) in assignments {
            if let r = e.relationship(named: key.text, in: model), !r.isToMany {
                let target = try constant(value)
                if target.isNull && !r.isOptional {
                    throw ShellError(.validationFailed, "\(e.name).\(r.name) is required; it cannot be set to nil; nothing was written",
                                     at: value.span, exitCode: ExitStatus.statementFailed)
                }
                guard case .foreignKey(let column)? = s.mapping.storage(of: r.name, of: e.name) else {
                    throw ShellError(.notSupported, "\(e.name).\(r.name) is kept on the \(r.destination) side; set it there",
                                     at: key.span, exitCode: ExitStatus.statementFailed)
                }
                links.append(ToOneLink(relationship: r, key: key, column: column,
                                       target: target.isNull ? nil : try reference(target, for: r, of: e, at: value.span, in: s)))
                continue
            }
            if e.relationship(named: key.text, in: model) != nil { throw toManyAssignment(key, of: e, verb: "UPDATE") }
            guard let a = e.attribute(named: key.text, in: model) else {
                let names = e.allAttributes(in: model).map(\.name) + e.allRelationships(in: model).filter { !$0.isToMany }.map(\.name)
                var error = ShellError(.malformedAssignment, "\(e.name) has no attribute or to-one relationship '\(key.text)' to set", at: key.span,
                                       hints: Suggestions.closest(to: key.text, among: names).map { ["did you mean '\($0)'?"] } ?? [])
                error.code = DiagnosticCode.unknownKeyInModel.rawValue
                error.stage = "bind"
                throw error
            }
            var expression: QueryExpression
            do { expression = try value.substituting(variables) } catch { throw ShellError(error) }
            if case .constant(let v) = expression.kind {
                let converted = attributeValue(v, for: a)
                try checkConstant(converted, for: a, of: e, at: value.span)
                expression = QueryExpression(.constant(converted), span: expression.span)
                constants.append((key, converted))
            } else {
                constants.append((key, nil))
            }
            set.append((key.text, expression))
        }
        let p = try substitute(predicate, entity: name.text)
        try checkUniqueness(e, set: constants, predicate: p, in: s)
        return (set, links, p)
    }

    /// Writes to-one foreign keys of the objects `ids`.
    private func setToOne(_ links: [ToOneLink], of ids: [ObjectID], entity: String, in s: SQLStore) throws {
        guard !ids.isEmpty, let table = s.mapping.table(for: entity) else { return }
        let assignments = links.map { SQLIdentifier.quoted($0.column) + " = ?" }.joined(separator: ", ")
        let values = links.map { $0.target.map { Value.int($0.primaryKey) } ?? .null }
        let run = try s.database.preparedRunner("UPDATE \(SQLIdentifier.quoted(table)) SET \(assignments)\(s.mapping.versionIncrementSuffix()) WHERE \(SQLIdentifier.quoted(StoreMapping.primaryKey)) = ?")
        for id in ids { try run(values + [.int(id.primaryKey)]) }
        s.forgetObjects()
    }

    func batchDelete(_ name: Name, _ predicate: QueryPredicate?) throws(ShellError) -> Int {
        _ = try entity(name)
        let p = try substitute(predicate, entity: name.text)
        if let watch { return try storeCall { s in try watch.batchDelete(s, entity: name.text, predicate: p) } }
        return try storeCall { s in try s.batchDelete(entity: name.text, predicate: p) }
    }

    // MARK: - EXPLAIN

    func explainText(_ statement: Statement) throws(ShellError) -> String {
        var lines = ["statement: " + StatementPrinter.format(statement)]
        func show(_ sql: SQLFragment) {
            lines.append("sql: " + sql.sql)
            lines.append("arguments: [" + sql.arguments.map { Printer.format($0) }.joined(separator: ", ") + "]")
        }
        switch statement {
        case .fetchTemplate:
            return try explainText(resolvingTemplates(statement))
        case .fetch(let f):
            _ = try entity(f.entity)
            var request = FetchRequest(entity: f.entity.text, predicate: try substitute(f.predicate, entity: f.entity.text),
                                       sortDescriptors: sortDescriptors(f.sort), fetchLimit: f.limit, fetchOffset: f.offset ?? 0)
            request.includesSubentities = !f.only
            if !f.properties.isEmpty || !f.groupBy.isEmpty {
                try fillDictionaryRequest(&request, f)
                let r = request
                let plan = try storeCall { s in try SQLPlanner.planDictionaries(r, mapping: s.mapping, now: s.now()) }
                if let plan { show(plan.sql) } else { lines.append("sql: none (computed in memory)") }
            } else {
                try explainFetch(request, into: &lines)
            }
        case .count(let name, let predicate, let only):
            _ = try entity(name)
            var request = FetchRequest(entity: name.text, predicate: try substitute(predicate, entity: name.text))
            request.includesSubentities = !only
            let plan = try storeCall { s in try s.explain(request) }
            if let count = plan.countSQL { show(count) } else { try explainFetch(request, into: &lines) }
        case .sections(let name, _, let predicate, let sort):
            _ = try entity(name)
            try explainFetch(FetchRequest(entity: name.text, predicate: try substitute(predicate, entity: name.text), sortDescriptors: sortDescriptors(sort)),
                             into: &lines)
        case .update(let name, let assignments, let predicate):
            let (set, links, p) = try plannedUpdate(name, assignments, predicate)
            if !set.isEmpty {
                let sql = try storeCall { s in try SQLPlanner.planUpdate(entity: name.text, predicate: p, set: set, mapping: s.mapping, now: s.now()) }
                if let sql { show(sql) } else { lines.append("sql: none (updated object by object in memory)") }
            }
            for link in links {
                lines.append("then: \(SQLIdentifier.quoted(link.column)) = \(link.target.map { "\($0.primaryKey) (\($0))" } ?? "NULL") for each selected object")
            }
        case .delete(let name, let predicate):
            _ = try entity(name)
            let p = try substitute(predicate, entity: name.text)
            let sql = try storeCall { s in try SQLPlanner.planKeys(entity: name.text, predicate: p, mapping: s.mapping, now: s.now()) }
            if let sql { show(sql) } else { lines.append("keys: selected in memory") }
            lines.append("then: delete rules (deny, cascade, nullify) in one transaction")
        case .insert:
            lines.append("runs: one INSERT in a transaction")
        case .eval, .evalPredicate, .set:
            lines.append("runs: in memory, no store")
        case .explain(let inner):
            return try explainText(inner)
        case .transaction:
            lines.append("runs: transaction control on the store's connection")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    func explainFetch(_ request: FetchRequest, into lines: inout [String]) throws(ShellError) {
        let plan = try storeCall { s in try s.explain(request) }
        // The statement that runs: unsorted when the store sorts in memory.
        let memorySort = try storeCall { s in s.sortedInMemory(plan) }
        let sql = memorySort?.unsorted ?? plan.sql
        lines.append("sql: " + sql.sql)
        lines.append("arguments: [" + sql.arguments.map { Printer.format($0) }.joined(separator: ", ") + "]")
        if memorySort != nil {
            let keys = request.sortDescriptors.map { $0.keyPath + ($0.ascending ? "" : " DESC") }
            lines.append("sort: in memory, in SQLite's order: " + keys.joined(separator: ", ") + ", then the key")
        }
        lines.append("residual: " + (plan.residual.map { Printer.format($0) } ?? "none"))
        let steps = try storeCall { s in try s.queryPlan(request) }
        lines.append("query plan:")
        lines += steps.map { "  " + $0 }
    }
}
