// Prints a statement back in canonical form: keywords upper case, clauses in
// grammar order, predicates and expressions as `Printer.format` prints them.
// EXPLAIN shows it; parsing the printed text gives the same statement.

public enum StatementPrinter {
    public static func format(_ statement: Statement) -> String {
        func whereClause(_ p: QueryPredicate?) -> String { p.map { " WHERE " + Printer.format($0) } ?? "" }
        func sort(_ items: [SortItem]) -> String {
            items.isEmpty ? "" : " SORT BY " + items.map { $0.keyPath + ($0.ascending ? "" : " DESC") }.joined(separator: ", ")
        }
        func properties(_ items: [PropertyItem]) -> String {
            items.map { item in
                let printed = Printer.format(item.expression)
                return printed == item.name ? printed : "\(printed) AS \(item.name)"
            }.joined(separator: ", ")
        }
        switch statement {
        case .fetch(let f):
            var s = "FETCH " + (f.distinct ? "DISTINCT " : "") + (f.only ? "ONLY " : "") + f.entity.text
            if !f.properties.isEmpty { s += " PROPERTIES " + properties(f.properties) }
            s += whereClause(f.predicate)
            if !f.groupBy.isEmpty { s += " GROUP BY " + properties(f.groupBy) }
            if let h = f.having { s += " HAVING " + Printer.format(h) }
            s += sort(f.sort)
            if let l = f.limit { s += " LIMIT \(l)" }
            if let o = f.offset { s += " OFFSET \(o)" }
            if let b = f.batchSize { s += " BATCH \(b)" }
            return s
        case .count(let e, let p, let only): return "COUNT " + (only ? "ONLY " : "") + e.text + whereClause(p)
        case .fetchTemplate(let name, let bindings):
            return "FETCH FROM TEMPLATE \(name.text)"
                + (bindings.isEmpty ? "" : " WITH " + bindings.map { "$\($0.variable.text) = \(Printer.format($0.value))" }.joined(separator: ", "))
        case .eval(let e): return "EVAL " + Printer.format(e)
        case .evalPredicate(let p): return "EVAL " + Printer.format(p)
        case .insert(let e, let values):
            return "INSERT \(e.text) {" + values.map { "\($0.key.text): \(Printer.format($0.value))" }.joined(separator: ", ") + "}"
        case .update(let e, let assignments, let p):
            return "UPDATE \(e.text) SET " + assignments.map { "\($0.key.text) = \(Printer.format($0.value))" }.joined(separator: ", ")
                + whereClause(p)
        case .delete(let e, let p): return "DELETE \(e.text)" + whereClause(p)
        case .sections(let e, let k, let p, let s): return "SECTIONS \(e.text) BY \(k.text)" + whereClause(p) + sort(s)
        case .set(let v, let e): return "SET $\(v.text) = " + Printer.format(e)
        case .explain(let inner): return "EXPLAIN " + format(inner)
        case .transaction(let t): return t.text
        }
    }
}
