// QuarryStatements: the statement language of query files and the REPL
// (Grammar/statements.ebnf) — the tree, its parser, the script splitter
// that finds statement boundaries, and the canonical printer — with no
// store, terminal or database behind it, so that any tool can read
// statements. Depends on QuarrySyntax only (the predicate language the
// clauses are written in), which it re-exports since its API is made of
// QuarrySyntax's types.
@_exported import QuarrySyntax
