// Dictionary results: rows of named values instead of objects — key paths,
// aggregates over the rows or groups (`average:(salary)`), aggregates over
// each object's to-many relationships (`count:(employees)`), with GROUP BY,
// HAVING, DISTINCT, sorting and limits. SQL runs the request when the
// planner can lower all of it; otherwise, and always on the memory engine,
// the evaluator computes the same rows from the objects.

/// One row of a dictionary fetch: keys in the order the request named them.
public struct DictionaryRow: Sendable, Equatable, CustomStringConvertible {
    public var keys: [String]
    public var values: [Value]

    public init(keys: [String], values: [Value]) {
        self.keys = keys
        self.values = values
    }

    public subscript(key: String) -> Value? { keys.firstIndex(of: key).map { values[$0] } }

    /// The row as a dictionary value (what HAVING and sorts evaluate against).
    public var dictionary: Value { .dictionary(Dictionary(uniqueKeysWithValues: zip(keys, values))) }

    public var description: String { "{" + zip(keys, values).map { "\($0): \(Printer.format($1))" }.joined(separator: ", ") + "}" }
}

extension SQLStore {
    /// The rows of a dictionary fetch (`propertiesToFetch` non-empty).
    public func fetchDictionaries(_ request: FetchRequest, engine: FetchEngine = .sql) throws -> [DictionaryRow] {
        // Planned on both engines: the memory engine reports the same bind
        // errors (unknown key, to-many without quantifier) as SQL.
        let plan = try SQLPlanner.planDictionaries(request, mapping: mapping, now: now(), inMemory: engine == .memory)
        if engine == .sql, let plan {
            let kinds = plan.types.map { $0.map(StoreValues.kind) ?? .automatic }
            var rows: [[Value]]
            do {
                rows = try database.rows(plan.sql.sql, plan.sql.arguments, as: kinds)
            } catch where database.isArithmeticOverflow(error) {
                // An Integer 64 sum that does not fit: the evaluator answers it.
                return try dictionariesInMemory(request)
            }
            try resolveToOneKeys(&rows, plan.toOne)
            return rows.map { DictionaryRow(keys: plan.names, values: $0) }
        }
        return try dictionariesInMemory(request)
    }

    /// Replaces the to-one keys SQL returned by the objects, as the memory
    /// engine's key paths give them (Core Data returns the object ID): one
    /// query per destination for the objects not registered yet.
    func resolveToOneKeys(_ rows: inout [[Value]], _ toOne: [String?]) throws {
        for (column, destination) in toOne.enumerated() {
            guard let destination else { continue }
            var wanted: Set<Int64> = []
            for row in rows { if case .int(let k) = row[column] { wanted.insert(k) } }
            var found: [Int64: StoredObject] = [:]
            for k in wanted { if let o = registered(ObjectID(entity: destination, primaryKey: k)) { found[k] = o } }
            let missing = wanted.subtracting(found.keys).sorted()
            if !missing.isEmpty, let select = mapping.rowSelect(for: destination), let table = mapping.table(for: destination) {
                for chunk in stride(from: 0, to: missing.count, by: 500) {
                    let keys = missing[chunk..<min(chunk + 500, missing.count)].map(Value.int)
                    let sql = "SELECT \(select.sql) FROM \(SQLIdentifier.quoted(table)) t0 WHERE t0.\(StoreMapping.quotedPrimaryKey) IN ("
                        + keys.map { _ in "?" }.joined(separator: ", ") + ")"
                    for o in try self.rows(SQLFragment(sql, keys), columns: select.columns, of: destination) { found[o.id.primaryKey] = o }
                }
            }
            for i in rows.indices {
                if case .int(let k) = rows[i][column] { rows[i][column] = found[k].map { .object(ObjectReference($0)) } ?? .null }
            }
        }
    }

    /// `selected`: the objects the request's predicate selects, when the
    /// caller has them (a context with unsaved changes); otherwise fetched here.
    func dictionariesInMemory(_ request: FetchRequest, selected: [any KeyValueAccessible]? = nil) throws -> [DictionaryRow] {
        try SQLPlanner.checkGrouping(request, model: model)
        var base = request
        base.sortDescriptors = []
        base.fetchLimit = nil
        base.fetchOffset = 0
        base.propertiesToFetch = []
        // In key order, whatever order the database returned them in: what
        // depends on order (the values `mode:` lists, which of equal values
        // it shows) is then the same on SQLite and PostgreSQL.
        let objects = Self.inKeyOrder(try selected ?? fetch(base, engine: .memory))
        let options = evaluationOptions
        let names = request.propertiesToFetch.map(\.name)
        let isAggregate = request.propertiesToFetch.map { SQLPlanner.isRowAggregate($0.expression, entity: request.entity, model: model) }
        let properties = try request.propertiesToFetch.map { try Evaluator.compile($0.expression, options: options) }

        // Groups of objects: by the group-by values, or one group when aggregating, or one per object.
        var groups: [[any KeyValueAccessible]] = []
        if !request.propertiesToGroupBy.isEmpty {
            let keys = try request.propertiesToGroupBy.map { try Evaluator.compile($0.expression, options: options) }
            // Values are not Hashable; their canonical print identifies them.
            var index: [String: Int] = [:]
            for o in objects {
                let key = Self.identity(try keys.map { try $0.evaluate(.object(ObjectReference(o))) })
                if let i = index[key] { groups[i].append(o) } else { index[key] = groups.count; groups.append([o]) }
            }
        } else if isAggregate.contains(true) {
            groups = [objects]
        } else {
            groups = objects.map { [$0] }
        }

        var rows: [(DictionaryRow, (any KeyValueAccessible)?)] = []
        for group in groups {
            var values: [Value] = []
            for (i, property) in request.propertiesToFetch.enumerated() {
                if isAggregate[i], case .function(let name, let args) = property.expression.kind {
                    let inner = try Evaluator.compile(args[0], options: options)
                    let collected = try group.map { try inner.evaluate(.object(ObjectReference($0))) }
                    let aggregate = try Evaluator.compile(QueryExpression(.function(name: name, arguments: [QueryExpression(.variable("rows"))])), options: options)
                    values.append(try aggregate.evaluate(.null, variables: ["rows": .array(collected)]))
                } else if let first = group.first {
                    values.append(try properties[i].evaluate(.object(ObjectReference(first))))
                } else {
                    values.append(.null)
                }
            }
            rows.append((DictionaryRow(keys: names, values: values), group.first))
        }
        if let having = request.havingPredicate {
            let compiled = try Evaluator.compile(having, options: options)
            rows = try rows.filter { try compiled.evaluate($0.0.dictionary) }
        }
        if request.returnsDistinctResults {
            var seen: Set<String> = []
            rows = rows.filter { seen.insert(Self.identity($0.0.values)).inserted }
        }
        // Sort keys name a property, or else are key paths of the row's object.
        let sortKeys = try request.sortDescriptors.map { d -> (QuerySortDescriptor, CompiledExpression?) in
            names.contains(d.keyPath) ? (d, nil) : (d, try Evaluator.compile(Parser.parseExpression(d.keyPath), options: options))
        }
        let decorated = try rows.map { row, object -> (DictionaryRow, [Value]) in
            let keys = try sortKeys.map { d, compiled -> Value in
                if let compiled, let object { return try compiled.evaluate(.object(ObjectReference(object))) }
                return row[d.keyPath] ?? .null
            }
            return (row, keys)
        }
        var sorted = decorated.sorted { a, b in
            for (i, (d, _)) in sortKeys.enumerated() {
                let order = SortOrder.compare(a.1[i], b.1[i], caseInsensitive: d.caseInsensitive)
                if order != 0 { return d.ascending ? order < 0 : order > 0 }
            }
            for (x, y) in zip(a.0.values, b.0.values) {
                let order = SortOrder.compare(x, y, caseInsensitive: false)
                if order != 0 { return order < 0 }
            }
            return false
        }.map(\.0)
        sorted = Array(sorted.dropFirst(request.fetchOffset))
        if let limit = request.fetchLimit { sorted = Array(sorted.prefix(limit)) }
        return sorted
    }

    /// What makes rows one group, or duplicates under DISTINCT: values are
    /// not Hashable, so their canonical print, with a negative zero printed
    /// as zero (SQL's GROUP BY and DISTINCT compare 0.0 and -0.0 equal, and
    /// PostgreSQL keeps the sign where SQLite does not).
    static func identity(_ values: [Value]) -> String {
        Printer.format(.array(values.map { if case .double(0) = $0 { return .double(0) } else { return $0 } }))
    }

    /// Store objects by entity and key (the context's and the store's kinds);
    /// other objects keep their order, after them.
    static func inKeyOrder(_ objects: [any KeyValueAccessible]) -> [any KeyValueAccessible] {
        func key(_ o: any KeyValueAccessible) -> ObjectID? { (o as? StoredObject)?.id ?? (o as? ManagedObject)?.objectID }
        return objects.enumerated().sorted { a, b in
            switch (key(a.element), key(b.element)) {
            case let (x?, y?): return (x.entity, x.primaryKey, a.offset) < (y.entity, y.primaryKey, b.offset)
            case (.some, nil): return true
            case (nil, .some): return false
            case (nil, nil): return a.offset < b.offset
            }
        }.map(\.element)
    }

    /// The engine's plan for a fetch, one line per step (SQLite's EXPLAIN
    /// QUERY PLAN, PostgreSQL's EXPLAIN).
    public func queryPlan(_ request: FetchRequest) throws -> [String] {
        let plan = try SQLPlanner.plan(request, mapping: mapping, now: now())
        // The statement that runs: unsorted when memory sorts.
        let sql = sortedInMemory(plan)?.unsorted ?? plan.sql
        let explain = database.dialect == .sqlite ? "EXPLAIN QUERY PLAN " : "EXPLAIN "
        return try database.rows(explain + sql.sql, sql.arguments).compactMap { row in
            if case .string(let detail)? = row.last { return detail }
            return nil
        }
    }
}
