// QuarryStore: stores of objects for a model. `SQLStore` keeps them in a
// SQLite file (or `:memory:`), runs fetches through the SQL planner with an
// in-memory residual, and hands back `StoredObject`s that the evaluator can
// read key by key, loading relationships on first touch.
@_exported import QuarrySQL
@_exported import QuarrySQLite
