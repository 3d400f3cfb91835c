// Binary attributes that allow external storage ("Allows External Storage",
// `externalStorage: true` in YAML): on a SQLite store with a file, a value
// longer than the threshold (`ExternalBinaryStorage.defaultThreshold`,
// 100 KiB, about Core Data's) is kept as a file in
// `.<store name>_SUPPORT/_EXTERNAL_DATA/<UUID>` beside the store — Core
// Data's folder — and read back transparently by every read path (the row
// decoders of StoreValues+Transformable.swift, which every object read goes
// through). A PostgreSQL schema has no folder beside it, and `:memory:` none
// either: there such values stay inline in their `bytea` / BLOB column.
//
// The column format (decided here): a value kept inline is the raw bytes, a
// BLOB, exactly as a plain binary column holds them; a value kept outside is
// the file's name, a TEXT value (SQLite keeps each value's storage class,
// so the two cannot be confused). Core Data's tags (0x01 + bytes / 0x02 +
// name, inside a BLOB) would match its layout, but then the raw bytes every
// existing Quarry store holds would read wrongly the day the model gains
// the flag (a value starting with 0x01 or 0x02), or need a migration of
// every row; with the storage class as the tag, a store's existing values
// read as they are, with no migration. Removing the flag from an attribute
// whose rows name files is refused when the store opens (naming the
// attribute and how many rows; `checkFileNamesOutsideFlagged`): reading the
// names as bytes, or sweeping their files, would lose data silently.
//
// Consistency, on rollback and crash (the store never points at a missing file):
// - A file is written (and fsynced, with its folder) inside the write
//   transaction, under the SQLite write lock (BEGIN IMMEDIATE), before the
//   row that names it — so before COMMIT. Names are fresh UUIDs: a file is
//   never overwritten in place, an update writes a new one.
// - Files are removed only by a sweep, after the outermost transaction ended
//   (committed or rolled back: `finishExternalWrites`, called by every write
//   entry point and by the shell's COMMIT / ROLLBACK) and at open: under the
//   write lock, every file of the folder that no row names is deleted. So
//   the files a rolled-back transaction wrote go, the files of replaced or
//   deleted values go once the COMMIT succeeded (whatever deleted them: a
//   context save, batch update or delete, a cascade, a nullify), and the
//   orphans of a crash go at the next open. A sweep that cannot take the
//   lock (another writer) is skipped: its files stay until the next one.
// An attribute in a uniqueness constraint keeps its values inline: the
// database's UNIQUE index, and the merge policies' lookups, compare the
// column, and two files of equal bytes have different names.
//
// The cost of a sweep after a write is bounded by what the write did, not
// by the number of files: the store's connection has TEMP triggers that
// note every file name a DELETE or UPDATE drops, and the storage remembers
// the files it wrote; only those candidates are checked
// (ExternalBinaryStorage+Sweep.swift). The sweep at open lists the folder
// and scans every external column, for a crashed writer's orphans.
import Foundation
import QuarryModel
import QuarrySQL
import QuarrySQLite

/// The files of one SQLite store's externally stored binary values.
public final class ExternalBinaryStorage {
    /// Values longer than this many bytes go to a file (Core Data's threshold is about 100 KB).
    public static let defaultThreshold = 100 * 1024
    /// Tests lower the threshold for the stores they open in their task.
    @TaskLocal public static var thresholdOverride: Int?

    /// `.<store name>_SUPPORT/_EXTERNAL_DATA` beside the store file (Core Data's folder).
    public static func folder(forStoreAt path: String) -> URL {
        let storeURL = URL(fileURLWithPath: path)
        return storeURL.deletingLastPathComponent()
            .appendingPathComponent("." + storeURL.deletingPathExtension().lastPathComponent + "_SUPPORT")
            .appendingPathComponent("_EXTERNAL_DATA")
    }

    /// The folder of the files.
    public let folder: URL
    /// Values longer than this go to a file.
    public var threshold: Int
    /// (table, quoted column) of every attribute that allows external storage.
    let columns: [(table: String, column: String)]
    /// Attributes (by name) in a uniqueness constraint: always inline (see the top of this file).
    let inlineOnly: Set<String>
    /// Files written since the last sweep (ExternalBinaryStorage+Sweep.swift).
    var written: Set<String> = []
    /// Whether the connection notes dropped names (its TEMP triggers are
    /// installed); without them a sweep after a write checks every file.
    var notesDroppedNames = false

    init(folder: URL, threshold: Int, columns: [(String, String)], inlineOnly: Set<String>) {
        self.folder = folder
        self.threshold = threshold
        self.columns = columns.map { (table: $0.0, column: $0.1) }
        self.inlineOnly = inlineOnly
    }

    /// The storage for a store on `database`, or nil: no attribute of the
    /// model allows external storage, or the database has no folder beside
    /// it (PostgreSQL, `:memory:`): such values stay inline.
    static func make(for database: any SQLDatabase, mapping: StoreMapping) -> ExternalBinaryStorage? {
        guard let file = database.databaseFile else { return nil }
        var columns: [(String, String)] = []
        for entity in mapping.model.entities {
            for a in entity.attributes where a.storesBytesOutsideSQL {
                guard let table = mapping.table(for: entity.name), let column = mapping.column(for: a.name, of: entity.name) else { continue }
                let quoted = SQLIdentifier.quoted(column)
                if !columns.contains(where: { $0 == (table, quoted) }) { columns.append((table, quoted)) }
            }
        }
        guard !columns.isEmpty else { return nil }
        let unique = Set(mapping.model.entities.flatMap { $0.uniquenessConstraints.flatMap(\.properties) })
        return ExternalBinaryStorage(folder: folder(forStoreAt: file),
                                     threshold: thresholdOverride ?? defaultThreshold, columns: columns, inlineOnly: unique)
    }

    /// At open, before anything reads: a binary attribute without the flag
    /// must not hold file names (the flag was removed from the model). Only
    /// looked for when the folder holds files.
    static func checkFileNamesOutsideFlagged(_ database: any SQLDatabase, mapping: StoreMapping) throws {
        guard let file = database.databaseFile else { return }
        // Only binary attributes kept inline can hold a stray file name; most
        // models have none, and then the folder is not even looked at.
        let inline = { (a: Attribute) in a.type == .binary && !a.allowsExternalBinaryDataStorage && !a.isTransient }
        guard mapping.model.entities.contains(where: { $0.attributes.contains(where: inline) }) else { return }
        let folder = folder(forStoreAt: file)
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter(isFileName)
        guard !files.isEmpty else { return }
        for entity in mapping.model.entities {
            for a in entity.attributes where inline(a) {
                guard let table = mapping.table(for: entity.name), let column = mapping.column(for: a.name, of: entity.name) else { continue }
                let c = SQLIdentifier.quoted(column)
                let rows = try database.query("SELECT COUNT(*) FROM \(SQLIdentifier.quoted(table)) WHERE typeof(\(c)) = 'text'", [], as: [.int])
                if case .int(let n)? = rows.first?.first, n > 0 {
                    throw ExternalBinaryError.flagRemoved(entity: entity.name, key: a.name, rows: Int(n), folder: folder.path)
                }
            }
        }
    }

    /// Whether `name` is one of ours (a UUID), so that a sweep never deletes
    /// anything else. Core Data names its files the same way: its writable
    /// stores' sweep (QuarryCoreData) uses this too.
    public static func isFileName(_ name: String) -> Bool { UUID(uuidString: name) != nil }

    /// Removes file `name` of `folder` when `name` is a file name
    /// (`isFileName`: never a path, so nothing outside the folder); false
    /// when it is not one or the file could not be removed (the callers'
    /// writes committed already: they ignore it, the file stays an orphan).
    public static func removeFile(named name: String, in folder: URL) -> Bool {
        guard isFileName(name) else { return false }
        return unlink(folder.appendingPathComponent(name).path) == 0
    }

    /// Writes `bytes` to a new file, fsynced with its folder; returns its name.
    func write(_ bytes: [UInt8]) throws -> String {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let name = UUID().uuidString
        let path = folder.appendingPathComponent(name).path
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        guard fd >= 0 else { throw ExternalBinaryError.cannotWrite(path: path, reason: String(cString: strerror(errno))) }
        var failure: String?
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let n = Foundation.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if n < 0 { if errno == EINTR { continue }; failure = String(cString: strerror(errno)); return }
                offset += n
            }
        }
        if failure == nil, fsync(fd) != 0 { failure = String(cString: strerror(errno)) }
        close(fd)
        if let failure {
            unlink(path)
            throw ExternalBinaryError.cannotWrite(path: path, reason: failure)
        }
        // The folder's entry too: after a power loss the row must not name a file the folder lost.
        let dir = open(folder.path, O_RDONLY)
        if dir >= 0 { fsync(dir); close(dir) }
        written.insert(name)   // a candidate for the next sweep (rolled back, or replaced in this transaction)
        return name
    }

    /// The bytes of file `name`.
    func read(_ name: String, entity: String, key: String, primaryKey: Int64?) throws -> [UInt8] {
        guard Self.isFileName(name) else {
            throw ExternalBinaryError.badReference(entity: entity, key: key, primaryKey: primaryKey, name: name)
        }
        let path = folder.appendingPathComponent(name).path
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ExternalBinaryError.missingFile(entity: entity, key: key, primaryKey: primaryKey, path: path)
        }
        return [UInt8](data)
    }

    /// The names of the files in the folder (ours only).
    func fileNames() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter(Self.isFileName)
    }
}

/// An externally stored value that could not be written or read.
public enum ExternalBinaryError: Error, Equatable, CustomStringConvertible {
    case cannotWrite(path: String, reason: String)
    case missingFile(entity: String, key: String, primaryKey: Int64?, path: String)
    case badReference(entity: String, key: String, primaryKey: Int64?, name: String)
    case flagRemoved(entity: String, key: String, rows: Int, folder: String)

    public var description: String {
        switch self {
        case .cannotWrite(let path, let why):
            return "cannot write the external data file \(path): \(why); nothing was written"
        case .missingFile(let e, let k, let pk, let path):
            return "\(e).\(k)" + (pk.map { " of row \($0)" } ?? "") + " is stored in the file \(path), which is missing (a store is copied together with its hidden .…_SUPPORT folder)"
        case .badReference(let e, let k, let pk, let name):
            return "\(e).\(k)" + (pk.map { " of row \($0)" } ?? "") + " holds the text '\(name.prefix(40))', not bytes or an external data file's name"
        case .flagRemoved(let e, let k, let n, let folder):
            return "\(e).\(k) does not allow external storage in this model, but \(n) row\(n == 1 ? "" : "s") of the store keep their value in a file of \(folder); open the store with a model that keeps externalStorage for it"
        }
    }
}

extension ExternalBinaryError: QuarryError {
    public var report: ErrorReport { ErrorReport(code: "R001", message: description) }
}

extension SQLStore {
    /// `StoreValues.storable`, then a long value of an attribute that allows
    /// external storage written to a file, the column given its name. Every
    /// write path that stores an attribute's value calls this.
    func storable(_ v: Value, for attribute: Attribute, entity: String) throws -> Value {
        let stored = try StoreValues.storable(v, for: attribute, entity: entity)
        guard attribute.allowsExternalBinaryDataStorage, let external = externalStorage,
              case .data(let bytes) = stored, bytes.count > external.threshold,
              !external.inlineOnly.contains(attribute.name) else { return stored }
        return .string(try external.write(bytes))
    }

    /// After a write: once no transaction is open any more (committed or
    /// rolled back), deletes the files no row names. Never throws: a sweep
    /// that cannot run now runs at the next write or open.
    public func finishExternalWrites() {
        guard let external = externalStorage, !database.isInTransaction else { return }
        _ = try? external.sweepAfterWrite(database)   // ExternalBinaryStorage+Sweep.swift
    }

    /// The files of the store's externally stored values, for checks (nil: values stay inline).
    public var externalDataFolder: URL? { externalStorage?.folder }

    /// Values longer than this go to files (nil: values stay inline). Tests lower it.
    public var externalStorageThreshold: Int? {
        get { externalStorage?.threshold }
        set { if let newValue { externalStorage?.threshold = newValue } }
    }
}
