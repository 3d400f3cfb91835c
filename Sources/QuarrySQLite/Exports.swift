// QuarrySQLite: the SQLite connection layer — connections, statements and
// their cache, Value binding and decoding, transactions, interruption, and
// the quarry_* SQL functions that give SQL the evaluator's string rules.
// The `Value` type comes from QuarrySyntax; re-exported so that users of
// this module need not import it themselves.
@_exported import QuarrySyntax
