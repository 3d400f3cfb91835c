// QuarryShell: the machine interface, the command implementations, and the
// `quarry` shell (statements, REPL, query files, output modes).
@_exported import QuarryEvaluation
@_exported import QuarryStatements
@_exported import QuarryStore
@_exported import QuarryPostgres
