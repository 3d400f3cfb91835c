// QuarryEvaluation: in-memory evaluation (issue 3). A predicate or expression
// tree is compiled once into a tree of closures (Evaluator.swift and the
// Compiler+*.swift files), then run against many objects. The language's own
// value semantics (equality across number types, string folding for [cd],
// arithmetic that never traps) live in the Value+*.swift, StringFolding.swift,
// Like.swift, Regex.swift and Functions*.swift files.
@_exported import QuarrySyntax
// The vocabulary shared with the SQL lowering: collection operators,
// aggregates, string operators, scalar keys (QuarryBinding).
@_exported import QuarryBinding

