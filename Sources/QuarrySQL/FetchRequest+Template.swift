// A fetch request made from one of the model's fetch request templates, as
// Core Data's `fetchRequestFromTemplate(withName:substitutionVariables:)`:
// the template's entity, predicate and limit, with every `$VARIABLE` of the
// predicate replaced by its value. An unknown template name is A006 with the
// closest name; a variable without a value is A005 (Apple raises too; it is
// never a silent nil); values for variables the predicate does not have are
// ignored, as Apple ignores them.
import QuarryModel

extension FetchRequest {
    /// The request the model's template `name` describes, with its
    /// variables substituted.
    ///
    /// ```swift
    /// let request = try FetchRequest(template: "wellPaid", in: model, substitutionVariables: ["minimum": .int(50_000)])
    /// ```
    public init(template name: String, in model: Model, substitutionVariables: [String: Value] = [:]) throws(Diagnostic) {
        guard let template = model.fetchRequestTemplate(named: name) else {
            let names = model.fetchRequestTemplates.map(\.name)
            var hints = Suggestions.closest(to: name, among: names).map { ["did you mean '\($0)'?"] } ?? []
            if hints.isEmpty { hints = [names.isEmpty ? "the model has no fetch request templates" : "the model has " + names.joined(separator: ", ")] }
            throw Diagnostic(.invalidRequest, "no fetch request template named '\(name)'", at: .synthesized, hints: hints, stage: .bind)
        }
        self.init(entity: template.entity, predicate: try template.predicate?.substituting(substitutionVariables), fetchLimit: template.fetchLimit)
    }
}
