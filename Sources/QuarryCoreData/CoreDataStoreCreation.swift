// Creating a new, empty Core Data store of a model: the SQLite file Core
// Data itself would write for it (bookkeeping tables, one table per
// hierarchy, join tables, indexes — CoreDataStoreLayout — and the metadata
// with the model's entity version hashes — CoreDataStoreMetadata), so an
// app's Core Data opens it without migration. Checked against every corpus
// store whose stored hashes equal the model's
// (Tests/QuarryCoreDataTests/CoreDataStoreCreationTests.swift); no Apple
// machine was available to open a created store with Core Data itself.
//
// Not written: `Z_MODELCACHE` (the compressed keyed archive of the model).
// Writing it faithfully means reproducing NSKeyedArchiver's archive of an
// NSManagedObjectModel, which is not done; stores of framework versions
// before 637 have no such table and open fine, and Core Data fills it in
// itself. So a created store opens through Quarry with a model, not alone.
//
// Warned (Result.warnings): the join table of a many-to-many between an
// entity and itself, whose name Core Data chooses unpredictably (wire-ios:
// Z_24TRUSTEDBYCLIENTS in one store, Z_24TRUSTEDCLIENTS in another).
//
// Refused, with nothing left behind: a model whose version hashes Quarry
// cannot compute exactly (derived attributes and the entities below them),
// a model it cannot lay out (a to-many without an inverse, R-tree or
// expression indexes), a framework version outside those the corpus shows,
// and a path where a file already is. The file is written under a
// temporary name beside the target and linked into place at the end.
import Foundation
import QuarryModel
import QuarrySQLite

public enum CoreDataStoreCreation {
    /// The framework versions whose layout the corpus shows (419 … 1344).
    public static let frameworkVersions: ClosedRange<Int> = 419...1344

    public struct Options: Sendable {
        /// `NSPersistenceFrameworkVersion` to write, and whose layout rules
        /// to follow (see CoreDataStoreLayout). The default is the newest
        /// in the corpus.
        public var frameworkVersion: Int
        /// `NSStoreModelVersionIdentifiers`: the model version's
        /// identifiers (Xcode's "Model Version Identifier"), if any.
        public var versionIdentifiers: [String]
        /// The store's UUID (`Z_UUID`); a new one when nil.
        public var storeUUID: UUID?

        public init(frameworkVersion: Int = 1344, versionIdentifiers: [String] = [], storeUUID: UUID? = nil) {
            self.frameworkVersion = frameworkVersion
            self.versionIdentifiers = versionIdentifiers
            self.storeUUID = storeUUID
        }
    }

    /// What was written.
    public struct Result: Sendable {
        public let path: String
        public let storeUUID: String
        public let versionHashes: [String: [UInt8]]
        /// Names that are a best guess (a self-referential many-to-many's
        /// join table), to pass on to the user.
        public let warnings: [String]
    }
}

extension CoreDataStore {
    /// Creates an empty Core Data store of `model` at `path` (which must not
    /// exist).
    ///
    /// ```swift
    /// let model = try ModelReader.read(from: "App.xcdatamodeld")
    /// try CoreDataStore.create(model: model, at: "Fixtures.sqlite")
    /// ```
    @discardableResult
    public static func create(model: Model, at path: String,
                              options: CoreDataStoreCreation.Options = .init()) throws -> CoreDataStoreCreation.Result {
        let refused = { (why: String) in CoreDataError(.unreadableModel, "cannot create a Core Data store at '\(path)': \(why); nothing was written") }
        guard CoreDataStoreCreation.frameworkVersions.contains(options.frameworkVersion) else {
            throw refused("framework version \(options.frameworkVersion) is outside \(CoreDataStoreCreation.frameworkVersions), the versions whose layout is known")
        }
        guard !FileManager.default.fileExists(atPath: path) else { throw refused("a file is already there") }
        var notCovered: [String] = []
        var hashes: [String: [UInt8]] = [:]
        for (name, outcome) in CoreDataVersionHash.entityHashes(model) {
            switch outcome {
            case .hash(let h): hashes[name] = h
            case .notCovered(let why): notCovered.append("\(name) (\(why))")
            }
        }
        guard notCovered.isEmpty else {
            throw refused("Quarry cannot compute Core Data's version hash of " + notCovered.sorted().joined(separator: ", ")
                          + ", and Core Data would not open the store without migration")
        }
        let layout: CoreDataStoreLayout
        do { layout = try CoreDataStoreLayout(model: model, frameworkVersion: options.frameworkVersion) } catch {
            throw refused(error.message)
        }
        let uuid = (options.storeUUID ?? UUID()).uuidString.uppercased()
        let plist = CoreDataStoreMetadata.plist(hashes: hashes, frameworkVersion: options.frameworkVersion,
                                                versionIdentifiers: options.versionIdentifiers)

        let url = URL(fileURLWithPath: path)
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).quarry-\(UUID().uuidString)").path
        func removeTemporary() { for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: temporary + suffix) } }
        do {
            let connection = try SQLiteConnection(path: temporary)
            do {
                // Core Data's stores: incremental auto-vacuum (set before
                // any table), 4 KB pages (SQLite's default), WAL from
                // framework version 637 (the connection's own journal mode),
                // a rollback journal before.
                // The connection has already switched the empty file to WAL,
                // so auto_vacuum takes effect only through a VACUUM.
                try connection.execute("PRAGMA auto_vacuum = 2")
                try connection.execute("VACUUM")
                try connection.execute("BEGIN")
                for statement in layout.statements { try connection.execute(statement) }
                try connection.execute("CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)")
                for e in layout.entities {
                    try connection.execute("INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, ?, 0)",
                                           [.int(Int64(e.number)), .string(e.name), .int(Int64(e.parent))])
                }
                try connection.execute("CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)")
                try connection.execute("INSERT INTO Z_METADATA (Z_VERSION, Z_UUID, Z_PLIST) VALUES (1, ?, ?)",
                                       [.string(uuid), .data(BinaryPropertyListWriter.write(plist))])
                try connection.execute("COMMIT")
                try connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
                if options.frameworkVersion < 637 { try connection.execute("PRAGMA journal_mode = DELETE") }
                connection.close()
            } catch {
                connection.close()
                throw error
            }
            // Checkpointed and closed: only the file itself is left.
            for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: temporary + suffix) }
            // link(2) never replaces an existing file (a rename would): a
            // file that appeared meanwhile is refused, not overwritten.
            if link(temporary, path) == 0 {
                unlink(temporary)
            } else if errno == EEXIST {
                throw refused("a file appeared there meanwhile")
            } else {
                // A file system without hard links: check, then rename.
                guard !FileManager.default.fileExists(atPath: path) else { throw refused("a file appeared there meanwhile") }
                try FileManager.default.moveItem(atPath: temporary, toPath: path)
            }
        } catch let error as CoreDataError {
            removeTemporary()
            throw error
        } catch {
            removeTemporary()
            throw CoreDataError(.unreadableStore, "cannot create a Core Data store at '\(path)': \(error); nothing was left behind")
        }
        return CoreDataStoreCreation.Result(path: path, storeUUID: uuid, versionHashes: hashes, warnings: layout.warnings)
    }
}
