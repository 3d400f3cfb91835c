// FETCH FROM TEMPLATE: a fetch request template of the model run as the
// FETCH it describes. The WITH values (and, for variables WITH leaves out,
// the session's SET values) are substituted into the template's predicate
// by the library's `FetchRequest(template:in:substitutionVariables:)`, so the
// shell and the library agree on unknown names (A006) and missing values
// (A005). The statement is resolved as soon as it is parsed: preflight,
// EXPLAIN and the run then see an ordinary FETCH.

extension ShellSession {
    /// `statement` with FETCH FROM TEMPLATE replaced by the FETCH of its
    /// template (inside EXPLAIN too); other statements unchanged.
    func resolvingTemplates(_ statement: Statement) throws(ShellError) -> Statement {
        switch statement {
        case .explain(let inner): return .explain(try resolvingTemplates(inner))
        case .fetchTemplate(let name, let bindings): return .fetch(try templateFetch(name, bindings))
        default: return statement
        }
    }

    private func templateFetch(_ name: Name, _ bindings: [(variable: Name, value: QueryExpression)]) throws(ShellError) -> FetchStatement {
        let model = try currentModel()
        var values = variables
        for (variable, value) in bindings { values[variable.text] = try constant(value) }
        let request: FetchRequest
        do {
            request = try FetchRequest(template: name.text, in: model, substitutionVariables: values)
        } catch {
            // Located at the template's name: the template's own text is in the model file.
            var e = ShellError(error)
            e.span = name.span
            if error.code == .missingVariable {
                e.message = "template '\(name.text)': " + error.message
                e.hints = ["give it with WITH $variable = value (or SET it first)"]
            }
            throw e
        }
        var f = FetchStatement(entity: Name(text: request.entity, span: name.span))
        f.predicate = request.predicate
        f.limit = request.fetchLimit
        return f
    }
}
