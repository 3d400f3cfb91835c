// QuarrySQL: the store mapping, schema creation, key-path binding against a
// model, and the lowering of predicates, sorts and fetches to SQL text with
// bound arguments. Pure: no database is touched here.
@_exported import QuarryEvaluation
@_exported import QuarryModel

