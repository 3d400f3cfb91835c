// A database as bytes: serializing a database and loading the bytes into
// another connection gives the same tables, the loaded copy stays writable
// without touching the original, and bytes that are not a database are a
// clear error that leaves the connection usable.
import Testing
@testable import QuarrySQLite

@Suite struct Serialization {
    @Test func anImageLoadsIntoAnotherConnectionAndStaysWritable() throws {
        let source = try SQLiteConnection.inMemory()
        try source.execute("CREATE TABLE person(id INTEGER PRIMARY KEY, name TEXT)")
        try source.execute("INSERT INTO person(name) VALUES ('Zoë'), ('José')")
        let image = try source.serializedImage()
        #expect(image.count >= 512)

        let copy = try SQLiteConnection.inMemory()
        try image.withUnsafeBytes { try copy.loadImage($0) }
        #expect(try copy.query("SELECT name FROM person ORDER BY id") == [[.string("Zoë")], [.string("José")]])
        // Writable, growing past the image, and independent of the source.
        for i in 0..<2000 { try copy.execute("INSERT INTO person(name) VALUES (?)", [.string("name \(i)")]) }
        #expect(try copy.scalar("SELECT count(*) FROM person") == .int(2002))
        #expect(try source.scalar("SELECT count(*) FROM person") == .int(2))
    }

    @Test func cachedStatementsOfTheOldDatabaseAreDropped() throws {
        let source = try SQLiteConnection.inMemory()
        try source.execute("CREATE TABLE t(x)")
        try source.execute("INSERT INTO t VALUES (7)")
        let image = try source.serializedImage()

        let target = try SQLiteConnection.inMemory()
        try target.execute("CREATE TABLE t(x, y)")
        #expect(try target.query("SELECT * FROM t") == [])
        try image.withUnsafeBytes { try target.loadImage($0) }
        #expect(try target.query("SELECT * FROM t") == [[.int(7)]])
    }

    @Test(arguments: [[UInt8](repeating: 0x41, count: 4096), Array("SQLite format 3\0 but not really".utf8), []])
    func bytesThatAreNotADatabaseAreAnError(_ bytes: [UInt8]) throws {
        let connection = try SQLiteConnection.inMemory()
        let error = sqliteError { try bytes.withUnsafeBytes { try connection.loadImage($0) } }
        #expect(error != nil)
        #expect(error?.message.contains("image") == true)
        // The connection still works (on an empty database).
        try connection.execute("CREATE TABLE t(x)")
        #expect(try connection.scalar("SELECT count(*) FROM t") == .int(0))
    }
}
