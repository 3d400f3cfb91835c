// A constraint a write broke, as a driver reports it in the store's terms
// (`SQLDatabase.constraintViolation(in:)`): which kind, and the constraint's
// name when the database says it. The shell words its refusal from this
// ("the change would repeat a value that must be unique (Employee.email)")
// whatever the engine, instead of reading SQLite's or PostgreSQL's errors.

/// A broken constraint: its kind, and its name when the database gives one.
public struct SQLConstraintViolation: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// A UNIQUE index or the primary key.
        case unique
        /// A foreign key pointing at no row.
        case foreignKey
        /// A NOT NULL column left empty.
        case notNull
        /// A CHECK constraint.
        case check
        /// Another constraint (an exclusion, a trigger's RAISE ...).
        case other
    }

    public var kind: Kind
    /// What the database names: `Employee.email` (SQLite gives the columns),
    /// nil when it names nothing the model would recognise.
    public var name: String?

    public init(_ kind: Kind, name: String? = nil) {
        self.kind = kind
        self.name = name
    }
}
