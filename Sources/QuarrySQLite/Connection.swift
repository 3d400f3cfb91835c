// QuarrySQLite: the SQLite connection layer.
import CSQLite
