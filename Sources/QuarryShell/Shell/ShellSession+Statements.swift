// Running statements: each `Statement` becomes a fetch request, a count, an
// evaluation, an insert, a batch update or delete, or a sectioned fetch on
// the session's store, and its result becomes a `StatementOutput`. Names are
// checked against the model first, so an unknown entity is a located bind
// error (B001, exit 65) with a "did you mean", before anything runs.


extension ShellSession {
    func execute(_ statement: Statement) throws(ShellError) {
        if explain, case .fetch = statement { write(.text(try explainText(statement))) }
        if explain, case .count = statement { write(.text(try explainText(statement))) }
        // FETCH … BATCH n prints each batch as it comes (ShellSession+Streaming.swift).
        if case .fetch(let f) = statement, streams(f) { return try streamFetch(f) }
        write(try result(of: statement))
        if watch != nil && statement.writes { reportWatchChanges() }
    }

    func result(of statement: Statement) throws(ShellError) -> StatementOutput {
        switch statement {
        case .fetch(let f):
            return .rows(try fetch(f))
        case .count(let name, let predicate):
            _ = try entity(name)
            let request = FetchRequest(entity: name.text, predicate: try substitute(predicate))
            let n = try storeCall { s in try s.count(request, engine: engine) }
            return .rows(ResultSet(columns: ["count"], rows: [[.int(Int64(n))]]))
        case .eval(let e):
            return .rows(ResultSet(columns: [Printer.format(e)], rows: [[try constant(e)]]))
        case .evalPredicate(let p):
            let value: Bool
            do { value = try Evaluator.compile(p.substituting(variables)).evaluate(.null, variables: variables) } catch { throw ShellError(error) }
            return .rows(ResultSet(columns: [Printer.format(p)], rows: [[.bool(value)]]))
        case .insert(let name, let values):
            let rows = try insert(name, values)
            return .status("inserted \(CellText.text(rows.rows[0][0]))", rows)
        case .update(let name, let assignments, let predicate):
            let n = try batchUpdate(name, assignments, predicate)
            return .status("updated \(n) object\(n == 1 ? "" : "s")", ResultSet(columns: ["updated"], rows: [[.int(Int64(n))]]))
        case .delete(let name, let predicate):
            let n = try batchDelete(name, predicate)
            return .status("deleted \(n) object\(n == 1 ? "" : "s")", ResultSet(columns: ["deleted"], rows: [[.int(Int64(n))]]))
        case .sections(let name, let keyPath, let predicate, let sort):
            return try sections(name, keyPath, predicate, sort)
        case .set(let name, let value):
            variables[name.text] = try constant(value)
            return .none
        case .explain(let inner):
            return .text(try explainText(inner))
        case .transaction(let t):
            return try runTransaction(t)
        }
    }

    // MARK: - Names and values

    func entity(_ name: Name) throws(ShellError) -> Entity {
        let model = try currentModel()
        guard let e = model.entity(named: name.text) else {
            let hint = Suggestions.closest(to: name.text, among: model.entityNames).map { ["did you mean '\($0)'?"] } ?? []
            var error = ShellError(.expectedEntity, "unknown entity '\(name.text)'; the model has \(model.entityNames.joined(separator: ", "))",
                                   at: name.span, hints: hint)
            error.code = DiagnosticCode.unknownEntity.rawValue
            error.stage = "bind"
            throw error
        }
        return e
    }

    func substitute(_ p: QuarrySyntax.Predicate?) throws(ShellError) -> QuarrySyntax.Predicate? {
        guard let p else { return nil }
        do { return try p.substituting(variables) } catch { throw ShellError(error) }
    }

    /// An expression with no object: `EVAL`, `SET`, INSERT values.
    func constant(_ e: QuarrySyntax.Expression) throws(ShellError) -> Value {
        do {
            return try Evaluator.compile(e.substituting(variables)).evaluate(.null, variables: variables)
        } catch {
            throw ShellError(error)
        }
    }

    /// Runs a store call, turning its errors into shell errors with exit codes.
    func storeCall<T>(_ body: (SQLStore) throws -> T) throws(ShellError) -> T {
        let s = try store()
        do {
            return try body(s)
        } catch let e as ShellError {
            throw e
        } catch let d as Diagnostic {
            throw ShellError(d)
        } catch let e as StoreError {
            var error = ShellError.failed(e.description)
            if case .typeMismatch = e { error.code = DiagnosticCode.bindTypeMismatch.rawValue } else {
                error.code = DiagnosticCode.unknownKeyInModel.rawValue
            }
            error.exitCode = ExitStatus.badInput
            throw error
        } catch let e as SQLiteError {
            if e.kind == .interrupted { throw ShellError.failed("interrupted", code: .interrupted) }
            throw ShellError.failed(e.description)
        } catch {
            throw ShellError.failed("\(error)")
        }
    }

    /// The columns FETCH shows for whole objects: attributes, then to-one
    /// relationships (as object IDs), in model order.
    func defaultColumns(_ e: Entity) throws(ShellError) -> [String] {
        let model = try currentModel()
        return e.allAttributes(in: model).filter { !$0.isTransient }.map(\.name)
            + e.allRelationships(in: model).filter { !$0.isToMany }.map(\.name)
    }

    func rows(_ objects: [StoredObject], _ columns: [String]) -> [[Value]] {
        // A Ctrl-C stops the copying too (the rows are then never printed).
        var result: [[Value]] = []
        result.reserveCapacity(objects.count)
        for (i, o) in objects.enumerated() {
            if i & 1023 == 0 && cancellation.isCancelled { break }
            result.append(columns.map { o.value(forKey: $0) ?? .null })
        }
        return result
    }

    func sortDescriptors(_ items: [SortItem]) -> [SortDescriptor] {
        items.map { SortDescriptor($0.keyPath, ascending: $0.ascending) }
    }

    // MARK: - FETCH

    func fetch(_ f: FetchStatement) throws(ShellError) -> ResultSet {
        let e = try entity(f.entity)
        var request = FetchRequest(entity: f.entity.text, predicate: try substitute(f.predicate),
                                   sortDescriptors: sortDescriptors(f.sort), fetchLimit: f.limit, fetchOffset: f.offset ?? 0)
        request.fetchBatchSize = f.batchSize ?? 0
        if !f.properties.isEmpty || !f.groupBy.isEmpty {
            return try fetchProperties(f, request)
        }
        let columns = try defaultColumns(e)
        let objects = try storeCall { s in try s.fetch(request, engine: engine) }
        return ResultSet(columns: columns, rows: rows(objects, columns))
    }

    // MARK: - INSERT

    func insert(_ name: Name, _ values: [(key: Name, value: QuarrySyntax.Expression)]) throws(ShellError) -> ResultSet {
        let e = try entity(name)
        let model = try currentModel()
        var attributes: [String: Value] = [:]
        var toOne: [String: ObjectID] = [:]
        for (key, expression) in values {
            let value = try constant(expression)
            if let r = e.relationship(named: key.text, in: model), !r.isToMany {
                guard let id = objectID(value, entity: r.destination) else {
                    throw ShellError(.malformedAssignment, "\(key.text) takes a \(r.destination): its primary key or '\(r.destination)/<key>'",
                                     at: expression.span)
                }
                toOne[key.text] = id
            } else if e.attribute(named: key.text, in: model) != nil {
                attributes[key.text] = value
            } else {
                let names = e.allProperties(in: model).map(\.name)
                var error = ShellError(.malformedAssignment, "\(e.name) has no attribute or to-one relationship '\(key.text)'", at: key.span,
                                       hints: Suggestions.closest(to: key.text, among: names).map { ["did you mean '\($0)'?"] } ?? [])
                error.code = DiagnosticCode.unknownKeyInModel.rawValue
                error.stage = "bind"
                throw error
            }
        }
        let id = try storeCall { s in try s.insert(name.text, attributes, toOne: toOne) }
        watch?.inserted(id)
        return ResultSet(columns: ["inserted"], rows: [[.string(id.description)]])
    }

    /// `3` or `"Department/3"` as the ID of an object of `entity`.
    func objectID(_ v: Value, entity: String) -> ObjectID? {
        switch v {
        case .int(let pk): return ObjectID(entity: entity, primaryKey: pk)
        case .string(let s):
            let parts = s.split(separator: "/")
            guard parts.count == 2, let pk = Int64(parts[1]) else { return nil }
            return ObjectID(entity: String(parts[0]), primaryKey: pk)
        case .object(let ref):
            return (ref.object as? StoredObject)?.id
        default: return nil
        }
    }

    // MARK: - SECTIONS

    func sections(_ name: Name, _ keyPath: Name, _ predicate: QuarrySyntax.Predicate?, _ sort: [SortItem]) throws(ShellError) -> StatementOutput {
        let e = try entity(name)
        let columns = try defaultColumns(e)
        let request = FetchRequest(entity: name.text, predicate: try substitute(predicate), sortDescriptors: sortDescriptors(sort))
        let objects = try storeCall { s in try s.fetch(request, engine: engine) }
        let key: CompiledExpression
        do { key = try Evaluator.compile(Parser.parseExpression(keyPath.text)) } catch { throw ShellError(error).shifted(by: keyPath.span.start) }
        var result: [ResultSection] = []
        var currentKey: Value?
        for object in objects {
            let value: Value
            do throws(Diagnostic) { value = try key.evaluate(.object(ObjectReference(object))) } catch { throw ShellError(error).shifted(by: keyPath.span.start) }
            // Consecutive objects with equal keys form a section, as in
            // NSFetchedResultsController: the sort must group them.
            if currentKey == nil || currentKey! != value || result.isEmpty {
                let title = value.isNull ? "" : String(CellText.text(value).prefix(1)).uppercased()
                result.append(ResultSection(name: CellText.text(value), indexTitle: title, rows: ResultSet(columns: columns, rows: [])))
                currentKey = value
            }
            result[result.count - 1].rows.rows.append(rows([object], columns)[0])
        }
        return .sections(columns: columns, result)
    }
}
