// A PostgreSQL store whose tables another session has locked: with a
// `lock_timeout` (from the URL or the connection options), writes — a
// store insert, a context save, batch update and delete — fail with a clear
// "database is locked" error once the timeout passes, the store keeps exactly
// the rows it had, and the context keeps its unsaved changes; reads go on,
// as they do on a SQLite store in WAL mode. When the other session lets go,
// the same save goes through. (SQLite's side: LockedStoreTests.)
//
// No timing assertions: each test has a time limit, so a hang fails it.
import Foundation
import QuarryPostgres
import QuarryPostgresTestSupport
import Testing

@Suite("Store on PostgreSQL: locked tables", .postgres, .serialized)
struct LockedStoreOnPostgresTests {
    /// Every row of the company tables, as text, in a stable order.
    func dump(_ store: SQLStore) throws -> [String] {
        var lines: [String] = []
        for entity in ["Department", "Employee"] {
            for object in try store.fetch(FetchRequest(entity: entity, sortDescriptors: [QuerySortDescriptor("name")])) {
                lines.append("\(entity): " + object.values.sorted { $0.key < $1.key }.map { "\($0.key)=\(Printer.format($0.value))" }.joined(separator: " "))
            }
        }
        return lines
    }

    func locked(_ body: () throws -> Void) -> PostgresDatabaseError? {
        do { try body() } catch let error as PostgresDatabaseError { return error } catch { Issue.record("not a PostgreSQL error: \(error)") }
        return nil
    }

    @Test(HangGuard.timeLimit())
    func writesWhileAnotherSessionHoldsTheTablesFailAndChangeNothing() throws {
        var url = try PostgresTestEnvironment.requireURL()
        url.schema = PostgresTestEnvironment.freshSchemaName()
        url.lockTimeout = "200ms"
        let store = try SQLStore(postgres: url.urlString, model: try ModelReader.read(from: StoreOnPostgresTests.companyPath))
        let holder = try PostgresDatabase(url: url)
        defer {
            _ = try? holder.run("DROP SCHEMA IF EXISTS \(PostgresIdentifier.quoted(holder.schema)) CASCADE", [])
            holder.close()
            store.database.close()
        }
        let sales = try store.insert("Department", ["name": .string("Sales")])
        try store.insert("Department", ["name": .string("Ops")])
        try store.insert("Employee", ["name": .string("Ann"), "salary": .int(60_000)], toOne: ["department": sales])
        let before = try dump(store)

        let context = Context(store: store)
        let legal = try context.insert("Department")
        try legal.setValue(.string("Legal"), forKey: "name")
        let ann = try #require(try context.fetch(FetchRequest(entity: "Employee")).first)
        try ann.setValue(.int(70_000), forKey: "salary")

        try holder.inTransaction {
            // EXCLUSIVE lets others read, not write (nor lock for writing).
            let tables = ["Department", "Employee"].map { PostgresIdentifier.quoted(store.mapping.table(for: $0)!) }
            try holder.run("LOCK TABLE \(tables.joined(separator: ", ")) IN EXCLUSIVE MODE", [])

            #expect(try dump(store) == before)
            let insert = locked { try store.insert("Department", ["name": .string("Held up")]) }
            #expect(insert?.kind == .locked)
            #expect(insert?.sqlState == "55P03")
            #expect(insert?.description.contains("database is locked") == true)
            #expect(insert?.description.contains("lock_timeout") == true)

            let save = locked { try context.save() }
            #expect(save?.kind == .locked)
            // The context keeps its changes, to save again later.
            #expect(context.hasChanges && legal.isInserted && legal.objectID.isTemporary && ann.isUpdated)

            let update = locked { try store.batchUpdate(entity: "Employee", predicate: nil, set: [("salary", try Parser.parseExpression("1"))]) }
            #expect(update?.kind == .locked)
            let delete = locked { try store.batchDelete(entity: "Department", predicate: nil) }
            #expect(delete?.kind == .locked)
            #expect(!store.database.isInTransaction)
            #expect(try dump(store) == before)
        }

        // The other session let go: the same save goes through.
        try context.save()
        #expect(!legal.objectID.isTemporary)
        let after = try dump(store)
        #expect(after.contains { $0.contains("Legal") } && after.contains { $0.contains("70000") } && !after.contains { $0.contains("Held up") })
    }

    @Test(HangGuard.timeLimit())
    func theTimeoutComesFromTheConnectionOptionsToo() throws {
        var options = PostgresDatabase.Options()
        options.lockTimeout = "150"
        try PostgresTestEnvironment.withFreshDatabase(options: options) { (db: PostgresDatabase) throws in
            #expect(try db.query("SELECT current_setting('lock_timeout')", [], as: [.string]) == [[.string("150ms")]])
            try db.run(#"CREATE TABLE "t" ("x" bigint)"#, [])
            try db.run(#"INSERT INTO "t" VALUES (1)"#, [])
            let holder = try PostgresDatabase(url: db.url, options: { var o = PostgresDatabase.Options(); o.schema = db.schema; o.createSchema = false; return o }())
            defer { holder.close() }
            try holder.inTransaction {
                try holder.run(#"LOCK TABLE "t" IN ACCESS EXCLUSIVE MODE"#, [])
                let error = locked { try db.run(#"UPDATE "t" SET "x" = 2"#, []) }
                #expect(error?.kind == .locked)
            }
            #expect(try db.query(#"SELECT "x" FROM "t""#, [], as: [.int]) == [[.int(1)]])
        }
    }
}
