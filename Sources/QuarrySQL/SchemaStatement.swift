// One statement of a schema as SchemaBuilder makes it: its SQL, and what it
// creates, said by the builder that wrote it — a migration plan
// (QuarryStore/MigrationPlanner.swift) compares two schemas by these parts
// (which tables are new, which indexes changed, which unique indexes need
// a duplicate check first, which PostgreSQL keys to add) instead of reading
// them back out of the SQL text.
public struct SchemaStatement: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// A hierarchy's table or a join table.
        case table(String)
        /// An index, and for a unique one its columns (to look for duplicates first).
        case index(name: String, table: String, uniqueColumns: [String]?)
        /// PostgreSQL: a foreign key added once every table exists.
        case foreignKey(table: String, column: String)
    }
    public let sql: String
    public let kind: Kind
    /// A table's definition after its name: `(columns…)`, and SQLite's
    /// `WITHOUT ROWID` for a join table.
    let tableBody: String?

    public init(_ sql: String, _ kind: Kind) {
        self.sql = sql
        self.kind = kind
        self.tableBody = nil
    }

    /// `CREATE TABLE "name" body`.
    static func table(_ name: String, body: String) -> SchemaStatement {
        SchemaStatement(sql: "CREATE TABLE \(SQLIdentifier.quoted(name)) " + body, kind: .table(name), tableBody: body)
    }

    private init(sql: String, kind: Kind, tableBody: String) {
        self.sql = sql
        self.kind = kind
        self.tableBody = tableBody
    }

    /// The same table under another name (a SQLite rebuild creates the new
    /// table beside the old one); nil for a statement that is no table.
    public func createTable(named name: String) -> String? {
        tableBody.map { "CREATE TABLE \(SQLIdentifier.quoted(name)) " + $0 }
    }
}
