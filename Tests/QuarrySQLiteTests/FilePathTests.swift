// Which file a database name opens (SQLiteFilePath.swift): plain paths are
// themselves, `file:` URIs name the file SQLite opens for them, in-memory
// names none. Each case is also opened by a connection where it names a file,
// so the table is checked against SQLite's own reading of the URI.
import Foundation
import Testing
@testable import QuarrySQLite

@Suite struct FilePathTests {
    static let cases: [(name: String, file: String?)] = [
        ("/tmp/a.sqlite", "/tmp/a.sqlite"),
        ("relative.sqlite", "relative.sqlite"),
        ("", nil),
        (":memory:", nil),
        ("file::memory:", nil),
        ("file::memory:?cache=shared", nil),
        ("file:/tmp/b.sqlite?mode=memory&cache=shared", nil),
        ("file:/tmp/a.sqlite", "/tmp/a.sqlite"),
        ("file:///tmp/a.sqlite", "/tmp/a.sqlite"),
        ("file://localhost/tmp/a.sqlite", "/tmp/a.sqlite"),
        ("file://example.com/tmp/a.sqlite", nil),
        ("file:/tmp/a.sqlite?mode=ro&immutable=1", "/tmp/a.sqlite"),
        ("file:/tmp/a%20b%3F.sqlite#frag", "/tmp/a b?.sqlite"),
        ("file:data.sqlite", "data.sqlite"),
        ("file:/tmp/%C3%A9t%c3%a9.sqlite", "/tmp/été.sqlite"),
        // A malformed escape or bytes that are not UTF-8: the text as given.
        ("file:/tmp/a%2.sqlite", "/tmp/a%2.sqlite"),
        ("file:/tmp/a%zz.sqlite", "/tmp/a%zz.sqlite"),
        ("file:/tmp/a%", "/tmp/a%"),
        ("file:/tmp/a%FF.sqlite", "/tmp/a%FF.sqlite"),
    ]

    @Test(arguments: cases)
    func theFileANameOpens(name: String, file: String?) {
        #expect(SQLiteFilePath.file(of: name) == file)
    }

    /// SQLite agrees: a URI the table maps to a file creates that file.
    @Test(arguments: ["file:%@", "file://%@", "file://localhost%@", "file:%@?cache=private"])
    func sqliteOpensTheSameFile(form: String) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-uri-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("a b?.sqlite").path
        let encoded = path.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~/")))!
        let name = form.replacingOccurrences(of: "%@", with: encoded)
        #expect(SQLiteFilePath.file(of: name) == path)
        let connection = try SQLiteConnection(path: name)
        try connection.execute("CREATE TABLE t (x)")
        connection.close()
        #expect(FileManager.default.fileExists(atPath: path), "\(name)")
    }

    /// `uriPath` is what `file(of:)` undoes, whatever the name holds; and
    /// SQLite reads it the same (the file it creates is the one named).
    @Test(arguments: ["plain.sqlite", "a b?c#d%e&f=g.sqlite", "été ☃.sqlite", "quote\"back\\slash+;,.sqlite"])
    func aURIPathNamesTheSameFile(name: String) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-uri-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent(name).path
        let uri = "file:" + SQLiteFilePath.uriPath(path) + "?mode=rwc"
        #expect(SQLiteFilePath.file(of: uri) == path)
        let connection = try SQLiteConnection(path: uri)
        try connection.execute("CREATE TABLE t (x)")
        connection.close()
        #expect(FileManager.default.fileExists(atPath: path), "\(uri)")
        // A relative path is made absolute first.
        #expect(SQLiteFilePath.uriPath("x y.sqlite") == SQLiteFilePath.uriPath(FileManager.default.currentDirectoryPath + "/x y.sqlite"))
    }
}
