// QuarryEvaluation: in-memory evaluation (issue 3). Filled in by Evaluator.swift and friends.
@_exported import QuarrySyntax
