// The external data files of a Core Data store opened writable
// (CoreDataExternalSweep.swift): a committed write that drops the last
// 0x02 reference to a file removes the file — a delete through a context
// save, a batch delete, a value replaced by a save or a batch update, set to
// nil — and every other file stays: one still referenced by another row,
// an orphan that was there before (no sweep of the whole folder: it is the
// app's), and whatever a hostile reference (`../x`) names. A rolled-back
// transaction (or savepoint) keeps its file; a read-only open changes no
// byte of the folder. On the hand-made store of SyntheticStoreTests with
// more Persons whose photos are in files, written as Core Data writes a
// reference (0x02, the UUID, a NUL).
import Foundation
@testable import QuarryCoreData
import QuarryModel
import QuarrySQLite
import QuarryStore
import QuarrySyntax
import Testing

@Suite("External data files of a writable Core Data store", .serialized)
struct CoreDataExternalSweepTests {
    static let cy = "A1B2C3D4-0000-4000-8000-00000000000A"       // Cy's photo
    static let shared = "A1B2C3D4-0000-4000-8000-00000000000B"   // Dee's and Eve's photo: one file, two references
    static let orphan = "A1B2C3D4-0000-4000-8000-00000000000C"   // no row names it
    static let bob = SyntheticStoreTests.externalName            // Bob's photo (no NUL after the name)

    /// Core Data's reference: 0x02, the name, a NUL (as the wire stores hold them).
    static func reference(_ name: String) -> String {
        "x'02" + Array(name.utf8).map { String(format: "%02X", $0) }.joined() + "00'"
    }

    /// The hand-made store, with Persons Cy (4), Dee (5), Eve (6) whose
    /// photos are files, and Fay (7) whose reference names `../x`; the
    /// folder holds their files, the orphan, and `.App_SUPPORT/x`.
    static func make(in scratch: Scratch) throws -> String {
        let statements = SyntheticStoreTests.statements + [
            "INSERT INTO ZPARTY (Z_PK, Z_ENT, Z_OPT, ZNAME, ZPHOTO) VALUES (4, 3, 1, 'Cy', \(reference(cy)))",
            "INSERT INTO ZPARTY (Z_PK, Z_ENT, Z_OPT, ZNAME, ZPHOTO) VALUES (5, 3, 1, 'Dee', \(reference(shared)))",
            "INSERT INTO ZPARTY (Z_PK, Z_ENT, Z_OPT, ZNAME, ZPHOTO) VALUES (6, 3, 1, 'Eve', \(reference(shared)))",
            "INSERT INTO ZPARTY (Z_PK, Z_ENT, Z_OPT, ZNAME, ZPHOTO) VALUES (7, 3, 1, 'Fay', CAST(x'02' || CAST('../x' AS BLOB) || x'00' AS BLOB))",
            "UPDATE Z_PRIMARYKEY SET Z_MAX = 7 WHERE Z_ENT = 1",
        ]
        let path = try SyntheticStoreTests.make(in: scratch, checkpointed: true, statements: statements)
        for name in [cy, shared, orphan] {
            #expect(FileManager.default.createFile(atPath: folder(scratch) + "/" + name, contents: Data("bytes of \(name)".utf8)))
        }
        #expect(FileManager.default.createFile(atPath: scratch.path(".App_SUPPORT/x"), contents: Data("not Core Data's".utf8)))
        return path
    }

    static func folder(_ scratch: Scratch) -> String { scratch.path(".App_SUPPORT/_EXTERNAL_DATA") }
    static func files(_ scratch: Scratch) -> Set<String> {
        Set((try? FileManager.default.contentsOfDirectory(atPath: folder(scratch))) ?? [])
    }
    static let all: Set<String> = [bob, cy, shared, orphan]

    static func person(_ context: Context, _ name: String) throws -> ManagedObject {
        try #require(try context.fetch(FetchRequest(entity: "Person", predicate: try Parser.parsePredicate("name == '\(name)'"))).first)
    }

    enum Write: String, CaseIterable, Sendable {
        case contextDelete, batchDelete, saveReplaces, batchUpdateReplaces, saveSetsNil, batchUpdateSetsNil
        case oneOfTwoReferencesDeleted, bothReferencesDeleted, everyPersonDeleted, hostileReferenceDeleted
        case otherAttributeUpdated, explicitTransactionCommitted
    }

    /// What each write removes.
    static func removed(by write: Write) -> Set<String> {
        switch write {
        case .contextDelete, .batchDelete, .saveReplaces, .batchUpdateReplaces, .saveSetsNil, .batchUpdateSetsNil,
             .explicitTransactionCommitted: return [cy]
        case .oneOfTwoReferencesDeleted, .hostileReferenceDeleted, .otherAttributeUpdated: return []
        case .bothReferencesDeleted: return [shared]
        case .everyPersonDeleted: return [bob, cy, shared]
        }
    }

    @Test(arguments: Write.allCases)
    func aCommittedWriteRemovesExactlyTheDroppedFiles(write: Write) throws {
        let scratch = Scratch()
        let path = try Self.make(in: scratch)
        #expect(Self.files(scratch) == Self.all)
        let store = try SQLStore(coreDataStore: path, model: SyntheticStoreTests.model, writable: true)
        let context = Context(store: store)
        let cy = try Parser.parsePredicate("name == 'Cy'")
        switch write {
        case .contextDelete:
            try context.delete(try Self.person(context, "Cy"))
            try context.save()
        case .batchDelete:
            #expect(try store.batchDelete(entity: "Person", predicate: cy) == 1)
        case .saveReplaces:
            try Self.person(context, "Cy").setValue(.data([1, 2, 3]), forKey: "photo")
            try context.save()
        case .batchUpdateReplaces:
            #expect(try store.batchUpdate(entity: "Person", predicate: cy, set: [("photo", try Parser.parseExpression("CAST('AQID', 'NSData')"))]) == 1)
        case .saveSetsNil:
            try Self.person(context, "Cy").setValue(.null, forKey: "photo")
            try context.save()
        case .batchUpdateSetsNil:
            #expect(try store.batchUpdate(entity: "Person", predicate: cy, set: [("photo", try Parser.parseExpression("nil"))]) == 1)
        case .oneOfTwoReferencesDeleted:
            try context.delete(try Self.person(context, "Dee"))
            try context.save()
        case .bothReferencesDeleted:
            try context.delete(try Self.person(context, "Dee"))
            try context.save()
            #expect(Self.files(scratch).contains(Self.shared), "Eve still names it")
            #expect(try store.batchDelete(entity: "Person", predicate: try Parser.parsePredicate("name == 'Eve'")) == 1)
        case .everyPersonDeleted:
            #expect(try store.batchDelete(entity: "Person", predicate: nil) == 6)
        case .hostileReferenceDeleted:
            #expect(try store.batchDelete(entity: "Person", predicate: try Parser.parsePredicate("name == 'Fay'")) == 1)
        case .otherAttributeUpdated:
            // A save that writes the row but not its photo keeps the reference.
            try Self.person(context, "Cy").setValue(.string("Prof"), forKey: "title")
            try context.save()
            #expect(try store.batchUpdate(entity: "Person", predicate: cy, set: [("score", try Parser.parseExpression("3"))]) == 1)
        case .explicitTransactionCommitted:
            try store.database.inTransaction { () throws -> Void in
                let deleted = try store.batchDelete(entity: "Person", predicate: cy)
                #expect(deleted == 1)
                #expect(Self.files(scratch).contains(Self.cy), "removed before the commit")
            }
        }
        #expect(Self.files(scratch) == Self.all.subtracting(Self.removed(by: write)), "\(write)")
        #expect(FileManager.default.fileExists(atPath: scratch.path(".App_SUPPORT/x")), "\(write): ../x was followed")
        store.database.close()
        // Every reference left still reads, through a read-only open.
        let reopened = try SQLStore(coreDataStore: path, model: SyntheticStoreTests.model)
        defer { reopened.database.close() }
        let people = try reopened.fetch(FetchRequest(entity: "Person"))
        for p in people where p.value(forKey: "name") == .string("Eve") {
            #expect(p.value(forKey: "photo") == .data(Array("bytes of \(Self.shared)".utf8)))
        }
        if write == .saveReplaces {
            #expect(people.first { $0.value(forKey: "name") == .string("Cy") }?.value(forKey: "photo") == .data([1, 2, 3]))
        }
        let z = try SQLiteConnection(path: path, options: .init(readOnly: true, create: false))
        defer { z.close() }
        #expect(try z.query("SELECT name FROM sqlite_master WHERE name LIKE 'quarry%'").isEmpty, "nothing of Quarry's in the file")
    }

    /// A transaction rolled back — whole, or to a savepoint inside one that
    /// commits — keeps the files its deletes dropped: the notes went with it.
    @Test(arguments: [false, true])
    func aRolledBackDeleteKeepsItsFile(savepoint: Bool) throws {
        let scratch = Scratch()
        let path = try Self.make(in: scratch)
        let store = try SQLStore(coreDataStore: path, model: SyntheticStoreTests.model, writable: true)
        defer { store.database.close() }
        struct Undo: Error {}
        if savepoint {
            try store.database.inTransaction { () throws -> Void in
                _ = try? store.database.inTransaction { () throws -> Void in
                    let deleted = try store.batchDelete(entity: "Person", predicate: try Parser.parsePredicate("name == 'Cy'"))
                    #expect(deleted == 1)
                    throw Undo()
                }
                let tags = try store.batchDelete(entity: "Tag", predicate: nil)
                #expect(tags == 2)
            }
        } else {
            #expect(throws: Undo.self) {
                try store.database.inTransaction { () throws -> Void in
                    let deleted = try store.batchDelete(entity: "Person", predicate: nil)
                    #expect(deleted == 6)
                    throw Undo()
                }
            }
        }
        #expect(try store.count(FetchRequest(entity: "Person", predicate: try Parser.parsePredicate("name == 'Cy'"))) == 1)
        #expect(Self.files(scratch) == Self.all)
        // A later committed write does not pick up the rolled-back notes.
        #expect(try store.batchUpdate(entity: "Person", predicate: nil, set: [("score", try Parser.parseExpression("1"))]) == 6)
        #expect(Self.files(scratch) == Self.all)
    }

    /// A context save inside a transaction that is rolled back keeps the
    /// file of the row it deleted; nothing is removed before the commit.
    @Test func aSaveInARolledBackTransactionKeepsTheFile() throws {
        let scratch = Scratch()
        let path = try Self.make(in: scratch)
        let store = try SQLStore(coreDataStore: path, model: SyntheticStoreTests.model, writable: true)
        defer { store.database.close() }
        let context = Context(store: store)
        try context.delete(try Self.person(context, "Cy"))
        struct Undo: Error {}
        #expect(throws: Undo.self) {
            try store.database.inTransaction { () throws -> Void in
                try context.save()
                #expect(Self.files(scratch) == Self.all, "inside the transaction nothing is removed")
                throw Undo()
            }
        }
        #expect(Self.files(scratch) == Self.all)
        #expect(try store.count(FetchRequest(entity: "Person", predicate: try Parser.parsePredicate("name == 'Cy'"))) == 1)
    }

    /// Opened read-only, nothing in the folder changes (its bytes hash the
    /// same), whatever is tried.
    @Test func aReadOnlyOpenNeverRemovesAnything() throws {
        let scratch = Scratch()
        let path = try Self.make(in: scratch)
        let before = try scratch.snapshot()
        let store = try SQLStore(coreDataStore: path, model: SyntheticStoreTests.model)
        #expect(throws: StoreError.self) { _ = try store.batchDelete(entity: "Person", predicate: nil) }
        let context = Context(store: store)
        try context.delete(try Self.person(context, "Cy"))
        #expect(throws: (any Error).self) { try context.save() }
        #expect(try store.fetch(FetchRequest(entity: "Person")).count == 6)
        store.database.close()
        let after = try scratch.snapshot()
        func digest(_ files: [String: Data]) -> [String: String] {
            files.filter { $0.key.hasPrefix(".App_SUPPORT") }.mapValues { SHA2.sha256(Array($0)).map { String(format: "%02x", $0) }.joined() }
        }
        #expect(digest(after) == digest(before))
        #expect(digest(before).count == 5, "the four files and ../x")
        #expect(after == before)
    }

    /// A reference is decoded as ExternalData reads it, and only a UUID is a
    /// name the sweep may join to the folder.
    @Test(arguments: [
        ([0x02] + Array("\(cy)".utf8) + [0x00], cy as String?, true),
        ([0x02] + Array(" \(cy) ".utf8), cy, true),
        ([0x02] + Array("../x".utf8) + [0x00], "../x", false),
        ([0x02] + Array("../\(cy)".utf8), "../\(cy)", false),
        ([0x02] + Array("/etc/passwd".utf8), "/etc/passwd", false),
        ([0x01] + Array(cy.utf8), nil, false),
        ([0x02], "", false),
    ] as [([UInt8], String?, Bool)])
    func referencesAndNames(bytes: [UInt8], name: String?, removable: Bool) {
        #expect(ExternalData.fileName(fromReference: bytes) == name)
        #expect(name.map(ExternalBinaryStorage.isFileName) ?? false == removable)
        if let name, !removable {
            #expect(!ExternalBinaryStorage.removeFile(named: name, in: URL(fileURLWithPath: "/tmp/none/_EXTERNAL_DATA")))
        }
    }
}
