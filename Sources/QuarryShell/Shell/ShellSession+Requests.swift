// The statements that map onto the store's request kinds beyond plain
// fetches: dictionary fetches (PROPERTIES, GROUP BY, HAVING, DISTINCT),
// batch updates and deletes, and EXPLAIN, which shows what a statement
// becomes — its canonical form, the SQL with its bound arguments, the part
// left to run in memory, and SQLite's query plan.
import Foundation

extension ShellSession {
    func fetchProperties(_ f: FetchStatement, _ base: FetchRequest) throws(ShellError) -> ResultSet {
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

    func batchUpdate(_ name: Name, _ assignments: [(key: Name, value: QuarrySyntax.Expression)], _ predicate: QuarrySyntax.Predicate?) throws(ShellError) -> Int {
        let e = try entity(name)
        let model = try currentModel()
        var set: [(String, QuarrySyntax.Expression)] = []
        for (key, value) in assignments {
            guard e.attribute(named: key.text, in: model) != nil else {
                let names = e.allAttributes(in: model).map(\.name)
                var error = ShellError(.malformedAssignment, "\(e.name) has no attribute '\(key.text)' to set", at: key.span,
                                       hints: Suggestions.closest(to: key.text, among: names).map { ["did you mean '\($0)'?"] } ?? [])
                error.code = DiagnosticCode.unknownKeyInModel.rawValue
                error.stage = "bind"
                throw error
            }
            do { set.append((key.text, try value.substituting(variables))) } catch { throw ShellError(error) }
        }
        let p = try substitute(predicate)
        // Under a watch, the objects it touched are merged into the watch's context.
        if let watch { return try storeCall { s in try watch.batchUpdate(s, entity: name.text, predicate: p, set: set) } }
        return try storeCall { s in try s.batchUpdate(entity: name.text, predicate: p, set: set) }
    }

    func batchDelete(_ name: Name, _ predicate: QuarrySyntax.Predicate?) throws(ShellError) -> Int {
        _ = try entity(name)
        let p = try substitute(predicate)
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
        case .fetch(let f):
            _ = try entity(f.entity)
            var request = FetchRequest(entity: f.entity.text, predicate: try substitute(f.predicate),
                                       sortDescriptors: sortDescriptors(f.sort), fetchLimit: f.limit, fetchOffset: f.offset ?? 0)
            if !f.properties.isEmpty || !f.groupBy.isEmpty {
                try fillDictionaryRequest(&request, f)
                let r = request
                let plan = try storeCall { s in try SQLPlanner.planDictionaries(r, mapping: s.mapping, now: s.now()) }
                if let plan { show(plan.sql) } else { lines.append("sql: none (computed in memory)") }
            } else {
                try explainFetch(request, into: &lines)
            }
        case .count(let name, let predicate):
            _ = try entity(name)
            let request = FetchRequest(entity: name.text, predicate: try substitute(predicate))
            let plan = try storeCall { s in try s.explain(request) }
            if let count = plan.countSQL { show(count) } else { try explainFetch(request, into: &lines) }
        case .sections(let name, _, let predicate, let sort):
            _ = try entity(name)
            try explainFetch(FetchRequest(entity: name.text, predicate: try substitute(predicate), sortDescriptors: sortDescriptors(sort)),
                             into: &lines)
        case .update(let name, let assignments, let predicate):
            _ = try entity(name)
            var set: [(String, QuarrySyntax.Expression)] = []
            for (k, v) in assignments { do { set.append((k.text, try v.substituting(variables))) } catch { throw ShellError(error) } }
            let p = try substitute(predicate)
            let sql = try storeCall { s in try SQLPlanner.planUpdate(entity: name.text, predicate: p, set: set, mapping: s.mapping, now: s.now()) }
            if let sql { show(sql) } else { lines.append("sql: none (updated object by object in memory)") }
        case .delete(let name, let predicate):
            _ = try entity(name)
            let p = try substitute(predicate)
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
