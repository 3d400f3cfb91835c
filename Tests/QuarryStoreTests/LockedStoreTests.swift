// A SQLite store file that someone else has locked, and a file that is not
// SQLite at all: opening or writing gives a clear error after at most the
// busy timeout — never a hang, never a crash — and the store is left exactly
// as it was (the same rows, byte for byte for the non-database file). These
// are file-level concerns of SQLite stores; tables locked on a PostgreSQL
// server are QuarryPostgresTests' "Store on PostgreSQL: locked tables".
//
// No timing assertions: each test has a time limit, so a hang fails it.
import Foundation
import QuarryPostgresTestSupport
import Testing
@testable import QuarryStore

@Suite("SQLite store: locked and foreign files", .serialized)
struct LockedStoreTests {
    /// A folder of its own, removed afterwards.
    final class Scratch {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-locked-\(UUID().uuidString)", isDirectory: true)
        init() { try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }
        func path(_ name: String) -> String { url.appendingPathComponent(name).path }
        deinit { try? FileManager.default.removeItem(at: url) }
    }

    static let model = try! ModelReader.read(from: Fixture.modelPath)

    /// A store file with two departments and an employee, closed again.
    func makeStore(_ path: String) throws {
        let store = try SQLStore(path: path, model: Self.model)
        let sales = try store.insert("Department", ["name": .string("Sales")])
        try store.insert("Department", ["name": .string("Ops")])
        try store.insert("Employee", ["name": .string("Ann"), "salary": .int(60_000)], toOne: ["department": sales])
        store.database.close()
    }

    /// The store over a connection that waits `timeout` seconds for locks.
    func open(_ path: String, timeout: Double = 0.2) throws -> SQLStore {
        try SQLStore(database: try SQLiteConnection(path: path, options: .init(busyTimeout: timeout)), model: Self.model)
    }

    func busy(_ body: () throws -> Void) -> SQLiteError? {
        do { try body() } catch let error as SQLiteError { return error } catch { Issue.record("not a SQLite error: \(error)") }
        return nil
    }

    @Test(HangGuard.timeLimit())
    func writesWhileAnotherConnectionHoldsTheLockFailAndChangeNothing() throws {
        let scratch = Scratch()
        let path = scratch.path("company.sqlite")
        try makeStore(path)
        let holder = try SQLiteConnection(path: path)
        try holder.execute("BEGIN EXCLUSIVE")
        try holder.execute(#"INSERT INTO "Department" ("_entity", "name") VALUES ('Department', 'Held')"#)

        // WAL: opening and reading go on; they see the committed rows only.
        let store = try open(path)
        let before = try dump(store)
        #expect(before.contains { $0.contains("Sales") } && !before.contains { $0.contains("Held") })

        let insert = busy { try store.insert("Department", ["name": .string("Legal")]) }
        #expect(insert?.kind == .busy)
        #expect(insert?.description.contains("database is locked") == true)
        #expect(insert?.description.contains("busy timeout") == true)

        let context = Context(store: store)
        let legal = try context.insert("Department")
        try legal.setValue(.string("Legal"), forKey: "name")
        let ann = try #require(try context.fetch(FetchRequest(entity: "Employee")).first)
        try ann.setValue(.int(70_000), forKey: "salary")
        let save = busy { try context.save() }
        #expect(save?.kind == .busy)
        // The context keeps its changes, to save again later.
        #expect(context.hasChanges && legal.isInserted && legal.objectID.isTemporary && ann.isUpdated)

        let update = busy { try store.batchUpdate(entity: "Employee", predicate: nil, set: [("salary", try Parser.parseExpression("1"))]) }
        #expect(update?.kind == .busy)
        let delete = busy { try store.batchDelete(entity: "Department", predicate: nil) }
        #expect(delete?.kind == .busy)
        #expect(try dump(store) == before)

        // Once the other connection lets go, the same save goes through.
        try holder.execute("ROLLBACK")
        try context.save()
        #expect(!legal.objectID.isTemporary)
        let after = try dump(store)
        #expect(after.contains { $0.contains("Legal") } && after.contains { $0.contains("70000") } && !after.contains { $0.contains("Held") })
    }

    @Test(HangGuard.timeLimit())
    func openingAStoreLockedAgainstReadersFailsClearly() throws {
        let scratch = Scratch()
        let path = scratch.path("company.sqlite")
        try makeStore(path)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        // Exclusive locking mode: after its first write the holder keeps the
        // file to itself, even between transactions; no one else may read.
        let holder = try SQLiteConnection(path: path)
        try holder.execute("PRAGMA locking_mode = EXCLUSIVE")
        try holder.execute("BEGIN EXCLUSIVE")
        try holder.execute(#"INSERT INTO "Department" ("_entity", "name") VALUES ('Department', 'Held')"#)

        let error = busy { _ = try open(path) }
        #expect(error?.kind == .busy)
        #expect(error?.description.contains("database is locked") == true)

        try holder.execute("ROLLBACK")
        holder.close()
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
        let store = try open(path)
        #expect(try dump(store).filter { $0.hasPrefix("Department:") }.count == 2)
    }

    static let sqlite3 = "/usr/bin/sqlite3"

    @Test(HangGuard.timeLimit(), .enabled(if: FileManager.default.isExecutableFile(atPath: sqlite3), "needs the sqlite3 command"))
    func aLockHeldByAnotherProcessIsAClearErrorToo() throws {
        let scratch = Scratch()
        let path = scratch.path("company.sqlite")
        try makeStore(path)
        let store = try open(path)
        let before = try dump(store)

        // The sqlite3 shell holds a write transaction open until its input ends.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.sqlite3)
        process.arguments = [path]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data(#"BEGIN EXCLUSIVE; INSERT INTO "Department" ("_entity", "name") VALUES ('Department', 'Held'); SELECT 'locked';"#.utf8 + [10]))
        var said = Data()
        while !String(decoding: said, as: UTF8.self).contains("locked") {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            said += chunk
        }
        #expect(String(decoding: said, as: UTF8.self).contains("locked"))

        let error = busy { try store.insert("Department", ["name": .string("Legal")]) }
        #expect(error?.kind == .busy)
        #expect(try dump(store) == before)

        // End of input: the shell rolls its transaction back and exits.
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        try store.insert("Department", ["name": .string("Legal")])
        #expect(try dump(store).count == before.count + 1)
    }

    @Test(HangGuard.timeLimit(), arguments: [1, 7, 4096, 3 * 4096 + 17])
    func aFileThatIsNotSQLiteIsAClearErrorAndStaysAsItWas(size: Int) throws {
        let scratch = Scratch()
        let path = scratch.path("random.bin")
        var rng = Seeded(state: UInt64(size))
        let bytes = Data((0..<size).map { _ in UInt8.random(in: 0...255, using: &rng) })
        try bytes.write(to: URL(fileURLWithPath: path))

        let error = busy { _ = try SQLStore(path: path, model: Self.model) }
        #expect(error?.kind == .notADatabase)
        #expect(error?.message.contains("'\(path)' is not a SQLite database") == true)
        let stored = busy { _ = try SQLStore.storedModel(at: path) }
        #expect(stored?.kind == .notADatabase)
        // Nothing was written into it, and no journal was left beside it.
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.url.path) == ["random.bin"])
    }
}
