// Never write to a file Quarry did not create. Opening a SQLite file as a
// store writes to it at once — the switch to WAL, and the model's tables
// when Quarry's bookkeeping table is missing — so before that happens the
// file is looked at without a single write, and a database that holds
// tables but is not a Quarry store (an app's Core Data store, anyone's
// SQLite file) is refused with an error that says what it is.
//
// Looking without writing: the main file is opened with SQLite's
// `immutable` flag, which takes no lock and creates no `-wal`/`-shm`. An
// immutable open does not see what is still in the `-wal`, so when the main
// file shows no tables and a non-empty `-wal` sits beside it (a store whose
// schema was never checkpointed) or the main file alone does not read (a
// checkpoint cut short), the file and its `-wal` are copied to a private
// folder and the copy is opened instead; the user's files are
// never opened for writing. Either way their bytes stay as they were.
//
// A file Quarry made says so in its header: every store is stamped with
// Quarry's application id (`PRAGMA application_id`, the field SQLite keeps
// for naming a file's format; SQLStore+SQLite.swift stamps it), so a store
// whose header carries it is known without opening it — the look above was
// a seventh of the CPU of an open that migrates. An unstamped file (a store from
// before the stamp, or one whose stamp is still in its `-wal`) is looked
// at as above; a stamped file is taken at its word, and the open checks
// that it holds Quarry's bookkeeping or no table at all (SQLStore.init).
//
// Special files (FIFOs, devices, folders) are not looked into: opening a
// FIFO to read would block; they are left to the open's own error. What is
// looked at is the file the open would write: a symbolic link is followed
// (a link to somebody's database is that database), and a `file:` URI is
// read as SQLite reads it (SQLiteFilePath.swift).
import Foundation
import QuarrySQLite

/// What a SQLite file holds, as far as opening it as a store is concerned.
public enum SQLiteFileKind: Equatable, Sendable {
    /// No file, an empty file, or a database with no tables: Quarry may
    /// create its store there.
    case empty
    /// A store Quarry created (it has `_quarry_metadata`).
    case quarry
    /// A Core Data store (it has Core Data's `Z_PRIMARYKEY` and `Z_METADATA`).
    case coreData(tables: [String])
    /// Some other SQLite database with tables of its own.
    case other(tables: [String])
    /// Not a regular file: not looked into.
    case special
    /// Does not start with SQLite's header: not looked into (the open
    /// refuses it with SQLite's own words).
    case notSQLite
}

public enum SQLiteFileInspection {
    /// The application id of a Quarry store ("QRRY"), at offset 68 of the
    /// header, big-endian, as SQLite keeps it.
    public static let applicationID: Int32 = 0x5152_5259
    static let applicationIDBytes: [UInt8] = Array("QRRY".utf8)

    /// What `path` holds, found without writing to it or its `-wal`/`-shm`.
    public static func kind(of name: String) throws -> SQLiteFileKind {
        // A `file:` URI opens a file like a plain path (SQLiteFilePath.swift).
        guard let named = SQLiteFilePath.file(of: name) else { return .empty }
        // The file itself, whose `-wal` sits beside it (not beside a link to it).
        let path = SQLiteFilePath.resolvingLinks(named)
        // stat(2) and read(2), not FileManager: its attributes look up the
        // owner's and group's names too, a tenth of a store's whole open.
        var info = stat()
        guard stat(path, &info) == 0 else { return .empty }
        guard info.st_mode & S_IFMT == S_IFREG else { return .special }
        if info.st_size == 0 { return .empty }
        let header = SQLiteFilePath.firstBytes(of: path, count: 72)
        guard header.starts(with: SQLiteFilePath.headerMagic) else { return .notSQLite }
        if header.count == 72 && Array(header[68..<72]) == SQLiteFileInspection.applicationIDBytes { return .quarry }

        let wal = path + "-wal"
        var walInfo = stat()
        let walBytes = stat(wal, &walInfo) == 0 ? Int(walInfo.st_size) : 0
        var tables: [String]
        do {
            tables = try tableNames(immutable: path)
        } catch where walBytes > 0 {
            // A writer killed while it checkpointed leaves pages of the main
            // file half-copied from the `-wal`, which still holds them whole:
            // the main file alone reads as "malformed", the two together
            // are consistent (a migration killed mid-way found it).
            return classify(try tableNames(copyOf: path, wal: wal))
        }
        if tables.isEmpty && walBytes > 0 { tables = try tableNames(copyOf: path, wal: wal) }
        return classify(tables)
    }

    static func classify(_ tables: [String]) -> SQLiteFileKind {
        let user = tables.filter { !$0.hasPrefix("sqlite_") }
        if user.contains(StoreMapping.metadataTable) { return .quarry }
        if user.isEmpty { return .empty }
        if user.contains("Z_PRIMARYKEY") && user.contains("Z_METADATA") { return .coreData(tables: user) }
        return .other(tables: user)
    }

    /// The tables in the main file alone, opened immutable (no lock, no
    /// journal, no `-shm`), by a connection that only looks (its header
    /// was checked above).
    private static func tableNames(immutable path: String) throws -> [String] {
        var options = SQLiteConnection.Options(readOnly: true, create: false)
        options.onlyLooks = true
        let connection = try SQLiteConnection(path: "file:\(SQLiteFilePath.uriPath(path))?immutable=1", options: options)
        defer { connection.close() }
        return try connection.tableNames()
    }

    /// The tables of a private copy of the file and its `-wal` (SQLite
    /// replays the `-wal` into the copy).
    private static func tableNames(copyOf path: String, wal: String) throws -> [String] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-inspect-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let copy = folder.appendingPathComponent("store.sqlite").path
        try FileManager.default.copyItem(atPath: path, toPath: copy)
        try FileManager.default.copyItem(atPath: wal, toPath: copy + "-wal")
        let connection = try SQLiteConnection(path: copy, options: .init(create: false))
        defer { connection.close() }
        return try connection.tableNames()
    }
}

extension SQLiteFileKind {
    /// The refusal to open this file as a store, or nil when Quarry may.
    func refusal(path: String) -> StoreError? {
        switch self {
        case .empty, .quarry, .special, .notSQLite: return nil
        case .coreData(let tables): return .foreignDatabase(path: path, coreData: true, tables: tables)
        case .other(let tables): return .foreignDatabase(path: path, coreData: false, tables: tables)
        }
    }
}
