// Core Data's rule for dictionary fetches that aggregate over rows: with
// GROUP BY, every fetched property is either one of the grouped properties
// or an aggregate function of the rows (`average:(salary)`); without GROUP
// BY, once one property aggregates the rows, all do. Anything else has no
// single value per group: SQLite would answer with an arbitrary row's,
// PostgreSQL refuses (SQLSTATE 42803), the evaluator would take the first
// object's — three answers to one question. Both engines refuse it here,
// before either runs.
import QuarrySyntax
import QuarryModel

extension SQLPlanner {
    /// Throws A006 when a property of `request` has no single value per group.
    public static func checkGrouping(_ request: FetchRequest, model: Model) throws(Diagnostic) {
        let aggregates = request.propertiesToFetch.map { isRowAggregate($0.expression, entity: request.entity, model: model) }
        let grouped = Set(request.propertiesToGroupBy.map { Printer.format($0.expression) })
        let groupedNames = Set(request.propertiesToGroupBy.map(\.name))
        guard !grouped.isEmpty || aggregates.contains(true) else { return }
        for (property, isAggregate) in zip(request.propertiesToFetch, aggregates) where !isAggregate {
            if grouped.contains(Printer.format(property.expression)) || groupedNames.contains(property.name) { continue }
            let why = grouped.isEmpty
                ? "it is not an aggregate, and other properties aggregate the rows"
                : "it is neither grouped nor an aggregate of the group's rows"
            throw Diagnostic(.invalidRequest, "property '\(property.name)' has no single value per group: \(why)",
                             at: property.expression.span,
                             hints: [grouped.isEmpty ? "add it to GROUP BY, or fetch it in a request of its own"
                                                     : "add it to GROUP BY, or aggregate it (e.g. min:(\(Printer.format(property.expression))))"],
                             stage: .bind)
        }
    }
}
