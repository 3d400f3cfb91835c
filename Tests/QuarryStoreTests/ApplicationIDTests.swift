// Quarry's stores carry Quarry's application id in their SQLite header
// (SQLiteFileInspection.swift), which lets an open know a store as Quarry's
// without opening it first. These tests check that every store gets it (a
// new one, and one made before the stamp at its next open), that the
// inspection reads it from the header, and that a file which claims to be
// Quarry's but holds another program's tables is still refused, its tables
// left as they were.
import Foundation
import QuarrySQLite
import Testing
@testable import QuarryStore

@Suite("Quarry's stores carry Quarry's application id")
struct ApplicationIDTests {
    static let model = try! ModelReader.read(from: Fixture.modelPath)
    static let quarryID = Value.int(Int64(SQLiteFileInspection.applicationID))

    static func scratch() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("quarry-appid-\(UUID().uuidString).sqlite").path
    }

    static func remove(_ path: String) { for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) } }

    static func applicationID(_ path: String) throws -> Value? {
        let connection = try SQLiteConnection(path: path, options: .init(readOnly: true, create: false))
        defer { connection.close() }
        return try connection.rows("PRAGMA application_id").first?.first
    }

    @Test func aNewStoreIsStampedAndKnownFromItsHeaderAlone() throws {
        let path = Self.scratch()
        defer { Self.remove(path) }
        let store = try SQLStore(path: path, model: Self.model)
        try store.insert("Department", ["name": .string("Sales")])
        store.database.close()
        #expect(try Self.applicationID(path) == Self.quarryID)
        // Closed, the stamp is in the main file's header: bytes 68–71, "QRRY".
        let header = SQLiteFilePath.firstBytes(of: path, count: 72)
        #expect(Array(header[68..<72]) == Array("QRRY".utf8))
        #expect(try SQLiteFileInspection.kind(of: path) == .quarry)
        // And it opens again as the same store.
        let again = try SQLStore(path: path, model: Self.model)
        defer { again.database.close() }
        #expect(try again.count(FetchRequest(entity: "Department")) == 1)
    }

    @Test func aStoreFromBeforeTheStampIsKnownByItsTablesAndStampedAtItsNextOpen() throws {
        let path = Self.scratch()
        defer { Self.remove(path) }
        let store = try SQLStore(path: path, model: Self.model)
        store.database.close()
        // As a store made before the stamp: no application id.
        let raw = try SQLiteConnection(path: path)
        _ = try raw.run("PRAGMA application_id = 0", [])
        raw.close()
        #expect(try Self.applicationID(path) == .int(0))
        #expect(try SQLiteFileInspection.kind(of: path) == .quarry)
        let reopened = try SQLStore(path: path, model: Self.model)
        reopened.database.close()
        #expect(try Self.applicationID(path) == Self.quarryID)
    }

    @Test func aForeignFileClaimingToBeQuarrysIsStillRefusedAndKeepsItsTables() throws {
        let path = Self.scratch()
        defer { Self.remove(path) }
        let raw = try SQLiteConnection(path: path)
        _ = try raw.run("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)", [])
        _ = try raw.run("INSERT INTO notes (body) VALUES ('keep me')", [])
        _ = try raw.run("PRAGMA application_id = \(SQLiteFileInspection.applicationID)", [])
        raw.close()
        // Taken at its word by the look before the open…
        #expect(try SQLiteFileInspection.kind(of: path) == .quarry)
        // …and refused by the open, which finds no bookkeeping beside tables.
        #expect {
            _ = try SQLStore(path: path, model: Self.model)
        } throws: { error in
            guard case StoreError.foreignDatabase(_, let coreData, let tables)? = error as? StoreError else { return false }
            return !coreData && tables == ["notes"]
        }
        let check = try SQLiteConnection(path: path, options: .init(readOnly: true, create: false))
        defer { check.close() }
        let tables = try check.rows("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").map { $0[0] }
        #expect(tables == [.string("notes")])
        #expect(try check.rows("SELECT body FROM notes").map { $0[0] } == [.string("keep me")])
    }
}
