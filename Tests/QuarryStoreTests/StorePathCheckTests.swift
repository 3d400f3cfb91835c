// Store paths and model names checked before SQLite opens anything (issue
// 19): a FIFO, a directory or a device is refused at once with what it is
// (a FIFO used to block the open forever), and a model whose names a
// database would refuse fails as a model error with no file left behind.
import Foundation
import Testing
@testable import QuarryStore

@Suite struct StorePathCheckTests {
    static func temporaryPath(_ name: String) -> String {
        NSTemporaryDirectory() + "quarry-location-\(getpid())-\(name)"
    }

    static let model = Model(entities: [Entity(name: "E", attributes: [Attribute(name: "a", type: .string)])])

    @Test func aFIFOIsRefusedAtOnce() throws {
        let path = Self.temporaryPath("fifo")
        unlink(path)
        #expect(mkfifo(path, 0o600) == 0)
        defer { unlink(path) }
        let start = Date()
        #expect(throws: StorePathError(path: path, kind: "a FIFO (named pipe)")) {
            _ = try SQLStore(path: path, model: Self.model)
        }
        #expect(throws: StorePathError.self) { _ = try SQLStore.storedModel(at: path) }
        #expect(Date().timeIntervalSince(start) < 5)
    }

    static let special: [(String, String)] = [("/dev/null", "a character device"), ("/tmp", "a directory")]

    @Test(arguments: special)
    func specialFilesAreRefused(path: String, kind: String) {
        #expect(throws: StorePathError(path: path, kind: kind)) { _ = try SQLStore(path: path, model: Self.model) }
    }

    @Test func regularAndNewFilesAreAccepted() throws {
        let path = Self.temporaryPath("new.sqlite")
        defer { for s in ["", "-wal", "-shm"] { unlink(path + s) } }
        _ = try SQLStore(path: path, model: Self.model)
        _ = try SQLStore(path: path, model: Self.model)
        _ = try SQLStore(path: ":memory:", model: Self.model)
    }

    static let badNames = ["_quarry_metadata", "Em\"p", "Em\\p", "Em\u{0}p", "sqlite_x"]

    @Test(arguments: badNames)
    func badNamesLeaveNoFile(name: String) {
        let path = Self.temporaryPath("bad.sqlite")
        defer { unlink(path) }
        let model = Model(entities: [Entity(name: name)])
        do {
            _ = try SQLStore(path: path, model: model)
            Issue.record("'\(name)' accepted")
        } catch let error as ModelError {
            #expect(error.kind == .invalidName)
        } catch {
            Issue.record("not a model error: \(error)")
        }
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func attributesClashingInCaseAcrossSiblingsGetTheirOwnColumns() throws {
        // Siblings share their root's table; "name" and "NAME" would be one column to SQLite.
        let model = Model(entities: [
            Entity(name: "Root"),
            Entity(name: "A", parent: "Root", attributes: [Attribute(name: "name", type: .string)]),
            Entity(name: "B", parent: "Root", attributes: [Attribute(name: "NAME", type: .integer64), Attribute(name: "XMIN", type: .double)]),
        ])
        let store = try SQLStore(path: ":memory:", model: model)
        #expect(store.mapping.column(for: "NAME", of: "B") == "B_NAME")
        #expect(store.mapping.column(for: "XMIN", of: "B") == "B_XMIN")
    }
}
