// Temporary until QuarryEvaluation lands: evaluation requests are refused.
public struct EvaluationOptions: Sendable { public init() {} }
extension MachineInterface {
    func evaluate(kind: String, source: SourceText, arguments: [Value], request: JSON) throws(Diagnostic) -> (String, JSON) {
        throw Diagnostic(.unsupportedOperation, "evaluation is not built yet", at: .synthesized, stage: .evaluate)
    }
}
