// Running statements: each `Statement` becomes a fetch request, a count, an
// evaluation, an insert, a batch update or delete, or a sectioned fetch on
// the session's store, and its result becomes a `StatementOutput`. Names are
// checked against the model first, so an unknown entity is a located bind
// error (B001, exit 65) with a "did you mean", before anything runs.


extension ShellSession {
    /// Parses one statement with the session's `--arg` values; the statement
    /// grammar's errors become the shell's, code, span and hints unchanged.
    func parseStatement(_ text: String) throws(ShellError) -> Statement {
        let parsed: Statement
        do { parsed = try StatementParser.parse(text, arguments: arguments) } catch { throw ShellError(error) }
        return try resolvingTemplates(parsed)
    }

    func execute(_ statement: Statement) throws(ShellError) {
        if explain, case .fetch = statement { write(.text(try explainText(statement))) }
        if explain, case .count = statement { write(.text(try explainText(statement))) }
        // FETCH … BATCH n prints each batch as it comes (ShellSession+Streaming.swift).
        if case .fetch(let f) = statement, streams(f) { return try streamFetch(f) }
        write(park(try result(of: statement)))
        if watch != nil && statement.writes { reportWatchChanges() }
    }

    func result(of statement: Statement) throws(ShellError) -> StatementOutput {
        switch statement {
        case .fetchTemplate:
            return try result(of: resolvingTemplates(statement))
        case .fetch(let f):
            return .rows(try fetch(f))
        case .count(let name, let predicate, let only):
            _ = try entity(name)
            var request = FetchRequest(entity: name.text, predicate: try substitute(predicate, entity: name.text))
            request.includesSubentities = !only
            let n = try storeCall { s in try s.count(request, engine: engine) }
            return .rows(ResultSet(columns: ["count"], rows: [[.int(Int64(n))]]))
        case .eval(let e):
            return .rows(ResultSet(columns: [Printer.format(e)], rows: [[try constant(e)]]))
        case .evalPredicate(let p):
            let value: Bool
            do { value = try Evaluator.compile(p.substituting(variables), options: evaluationOptions()).evaluate(.null, variables: variables) } catch { throw ShellError(error) }
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

    /// `p` with `$variables` replaced; with `entity`, ISO 8601 text compared
    /// to a date attribute is read as the date (ShellSession+WriteRules.swift).
    func substitute(_ p: QueryPredicate?, entity: String? = nil) throws(ShellError) -> QueryPredicate? {
        guard let p else { return nil }
        let substituted: QueryPredicate
        do { substituted = try p.substituting(variables) } catch { throw ShellError(error) }
        guard let entity else { return substituted }
        return readingDates(substituted, entity: entity, model: try currentModel())
    }

    /// An expression with no object: `EVAL`, `SET`, INSERT values.
    func constant(_ e: QueryExpression) throws(ShellError) -> Value {
        do {
            return try Evaluator.compile(e.substituting(variables), options: evaluationOptions()).evaluate(.null, variables: variables)
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
            // The code is the error's own (StoreErrors+QuarryError.swift).
            var error = ShellError.failed(e.description)
            error.code = e.report.code
            // The model's rules refusing a write: the statement failed (1);
            // anything else the store refuses was bad input (65).
            if error.code != ShellCode.validationFailed.rawValue { error.exitCode = ExitStatus.badInput }
            throw error
        } catch {
            // The database's errors, told apart by its driver (an interruption,
            // a broken constraint ...), never its raw message with the SQL
            // that failed (ShellSession+DatabaseErrors.swift).
            if let failure = Self.databaseFailure(error, from: s.database) { throw failure }
            if let e = error as? any QuarryError { throw ShellError(reporting: e) }   // any other Quarry error keeps its own code
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

    func sortDescriptors(_ items: [SortItem]) -> [QuerySortDescriptor] {
        items.map { QuerySortDescriptor($0.keyPath, ascending: $0.ascending) }
    }

    // MARK: - FETCH

    func fetch(_ f: FetchStatement) throws(ShellError) -> ResultSet {
        let e = try entity(f.entity)
        var request = FetchRequest(entity: f.entity.text, predicate: try substitute(f.predicate, entity: f.entity.text),
                                   sortDescriptors: sortDescriptors(f.sort), fetchLimit: f.limit, fetchOffset: f.offset ?? 0)
        request.fetchBatchSize = f.batchSize ?? 0
        request.includesSubentities = !f.only
        if !f.properties.isEmpty || !f.groupBy.isEmpty {
            return try fetchProperties(f, request)
        }
        let columns = try defaultColumns(e)
        let objects = park(try storeCall { s in try s.fetch(request, engine: engine) })
        return ResultSet(columns: columns, rows: rows(objects, columns))
    }

    // MARK: - INSERT

    /// `INSERT Entity {key: value, ...}`: one object, inserted and saved
    /// through a context of its own, so the model's rules apply exactly as
    /// in a save (ShellSession+WriteRules.swift words the refusals).
    func insert(_ name: Name, _ values: [(key: Name, value: QueryExpression)]) throws(ShellError) -> ResultSet {
        let e = try entity(name)
        let model = try currentModel()
        let s = try store()
        // First: no value can make an abstract entity insertable.
        if let refusal = e.abstractRefusal(in: model) { throw ShellError(.malformedAssignment, refusal, at: name.span) }
        var attributes: [(String, Value)] = []
        var toOne: [(String, ObjectID?)] = []
        var spans: [String: SourceSpan] = [:]
        var given: [String: Value] = [:]
        for (key, expression) in values {
            let value = try constant(expression)
            spans[key.text] = expression.span
            if let r = e.relationship(named: key.text, in: model), !r.isToMany {
                toOne.append((key.text, value.isNull ? nil : try reference(value, for: r, of: e, at: expression.span, in: s)))
            } else if let a = e.attribute(named: key.text, in: model) {
                let v = attributeValue(value, for: a)
                attributes.append((key.text, v))
                given[key.text] = v
            } else if e.relationship(named: key.text, in: model) != nil {
                throw toManyAssignment(key, of: e, verb: "INSERT")
            } else {
                let names = e.allProperties(in: model).map(\.name)
                var error = ShellError(.malformedAssignment, "\(e.name) has no attribute or to-one relationship '\(key.text)'", at: key.span,
                                       hints: Suggestions.closest(to: key.text, among: names).map { ["did you mean '\($0)'?"] } ?? [])
                error.code = DiagnosticCode.unknownKeyInModel.rawValue
                error.stage = "bind"
                throw error
            }
        }
        let context = Context(store: s)
        let id: ObjectID
        do {
            let object = try context.insert(name.text)
            for (key, value) in attributes { try object.setValue(value, forKey: key) }
            for (key, target) in toOne { try object.setToOneOfNewObject(target.map { context.object(with: $0) }, forKey: key) }
            try context.save()
            id = object.objectID
        } catch let refused as ValidationError {
            throw refusal(refused, verb: "INSERT", spans: spans, values: given, fallback: name.span)
        } catch where s.database.isInterruption(error) {
            throw ShellError.failed("interrupted", code: .interrupted)
        } catch let e as ContextError {
            throw ShellError(.malformedAssignment, e.description, at: name.span)
        } catch let e as DerivedAttributeError {
            throw ShellError(reporting: e)
        } catch {
            throw ShellError.failed(Self.databaseMessage(error, from: s.database),
                                    code: s.database.isConstraintViolation(error) ? .constraintFailed : .statementFailed)
        }
        watch?.inserted(id)
        return ResultSet(columns: ["inserted"], rows: [[.string(id.description)]])
    }

    // MARK: - SECTIONS

    /// `SECTIONS Entity BY keyPath [WHERE p] SORT BY ...`: the sections a
    /// fetched-results controller makes of the fetch, so SECTIONS refuses
    /// what the library refuses (with `.watch`'s codes: ShellSession+Watch.swift)
    /// and names sections as it does (nil is "", true is "1", index titles
    /// from the name).
    func sections(_ name: Name, _ keyPath: Name, _ predicate: QueryPredicate?, _ sort: [SortItem]) throws(ShellError) -> StatementOutput {
        let e = try entity(name)
        let firstSort = try checkSectioned(e, keyPath: keyPath, sort: sort, noSort: ShellError(
            .badDotArgument, "SECTIONS needs SORT BY: a section is a run of objects with equal keys in that order",
            at: keyPath.span, hints: ["add SORT BY \(keyPath.text), ... (the section key first)"]))
        let columns = try defaultColumns(e)
        let request = FetchRequest(entity: name.text, predicate: try substitute(predicate, entity: name.text), sortDescriptors: sortDescriptors(sort))
        let sections = try storeCall { s throws -> [ResultSection] in
            // Rows are read while the context lives: its objects reach related ones through it.
            let context = park(Context(store: s))
            let controller = park(FetchedResultsController(fetchRequest: request, context: context, sectionNameKeyPath: keyPath.text))
            do { try controller.performFetch() } catch let e as FetchedResultsError {
                throw ShellError(.badDotArgument, e.description, at: firstSort.span)
            }
            InterruptTrace.mark("SECTIONS: fetched and sectioned")
            return try withExtendedLifetime(context) { () throws(ShellError) -> [ResultSection] in
                // Reading every object's values takes a while on a big
                // store: a Ctrl-C is looked for every 1,024 objects.
                var built: [ResultSection] = []
                var seen = 0
                for section in controller.sections ?? [] {
                    var rows: [[Value]] = []
                    rows.reserveCapacity(section.objects.count)
                    for o in section.objects {
                        if seen & 1023 == 0 && cancellation.isCancelled {
                            // Freed after `interrupted` is printed, not before.
                            park((built, rows))
                            try cancellation.check()
                        }
                        seen += 1
                        rows.append(columns.map { Watch.printable(o.value(forKey: $0) ?? .null) })
                    }
                    built.append(ResultSection(name: section.name, indexTitle: section.indexTitle ?? "", rows: ResultSet(columns: columns, rows: rows)))
                }
                InterruptTrace.mark("SECTIONS: rows built")
                return built
            }
        }
        return .sections(columns: columns, sections)
    }
}
