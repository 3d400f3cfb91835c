// QuarryShell: the machine interface and command implementations.
@_exported import QuarryEvaluation
