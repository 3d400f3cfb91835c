// Read-modify-write: batch work that reads rows and then writes values
// computed from them (an UPDATE whose SET runs object by object, a delete
// whose predicate runs in memory) must not let another writer commit in
// between, or that writer's change is silently overwritten — a lost update.
// The rule is "transaction first, then lock, then read", never "read, then
// open the transaction to write".
//
// - SQLite: the store's transactions are BEGIN IMMEDIATE, which takes the
//   database's write lock before the first read; the read then sees every
//   commit made before, and nobody commits until we do.
// - PostgreSQL: under READ COMMITTED another session may commit between our
//   SELECT and our UPDATE. The tables written are locked in SHARE ROW
//   EXCLUSIVE mode (readers go on; other writers, and other
//   read-modify-writers, wait until we commit, then see our rows). Tables
//   are locked in name order, so two read-modify-writers never wait for
//   each other in a cycle.
//
// The store's registered objects are dropped inside the transaction, so the
// read decodes rows as they are now, not values an earlier fetch cached.
// Interrupts asked for before the work started are forgotten; ones asked
// for during it are checked between statements (`checkInterrupt`), so a
// Ctrl-C at any phase rolls the whole change back.

extension SQLStore {
    /// Runs `body` in a transaction that holds the write lock on `tables`
    /// before anything is read, with the store's object cache emptied.
    func readModifyWrite<T>(writing tables: [String], _ body: () throws -> T) throws -> T {
        if !database.isInTransaction { database.clearInterruptRequest() }
        return try database.inTransaction {
            if database.dialect == .postgres {
                for table in Set(tables).sorted() {
                    try database.run("LOCK TABLE \(SQLIdentifier.quoted(table)) IN SHARE ROW EXCLUSIVE MODE")
                }
            }
            registeredObjects.removeAll()
            return try body()
        }
    }

    /// The tables of every entity: what a delete with rules may change.
    var allTables: [String] { model.entities.compactMap { mapping.table(for: $0.name) } }

    /// Throws the driver's interrupted error when the work was asked to stop.
    func checkInterrupt() throws {
        try database.throwIfInterruptRequested()
    }
}
