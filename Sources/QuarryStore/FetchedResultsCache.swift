// The controller's section cache on disk: one JSON file per cache name
// holding the section names and counts, with two fingerprints that say when
// they may be reused — the request's (entity, predicate as canonical text,
// sort descriptors, section key path, limit and offset) and the store's.
//
// The store's fingerprint follows Core Data, which compares the store
// file's modification date: here the size and modification time of the
// database file and of its write-ahead log (WAL mode writes go to the log
// first, so the main file alone would miss them). A write by any process
// changes one of them. An in-memory store has no file: its fingerprint is
// the store object and its connection's change count, so a cache for it is
// reused only within the process and only while nothing was written.
//
// The check is conservative: closing the last connection checkpoints the
// log into the main file, which changes its time, so a cache written while
// the log held changes is rebuilt once after that.
//
// Even a valid-looking cache is checked: its counts must add up to the
// number of objects fetched, or it is ignored and rebuilt.
import Foundation
import QuarrySQLite

struct FetchedResultsCacheFile: Codable {
    struct Section: Codable {
        var name: String
        var count: Int
    }
    var format = 1
    var request: String
    var store: String
    var sections: [Section]
}

enum FetchedResultsCache {
    static func url(name: String, in directory: URL) -> URL {
        // Any name is allowed: keep letters and digits, escape the rest.
        var safe = ""
        for scalar in name.unicodeScalars {
            if scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || scalar == "-" || scalar == "_") {
                safe.unicodeScalars.append(scalar)
            } else {
                safe += "%" + String(scalar.value, radix: 16)
            }
        }
        return directory.appendingPathComponent(safe + ".quarry-sections.json")
    }

    /// The cached sections if both fingerprints still match.
    static func load(name: String, in directory: URL, for controller: FetchedResultsController) -> [FetchedResultsCacheFile.Section]? {
        guard let data = try? Data(contentsOf: url(name: name, in: directory)),
              let file = try? JSONDecoder().decode(FetchedResultsCacheFile.self, from: data),
              file.format == 1, file.request == requestFingerprint(controller), file.store == storeFingerprint(controller.context.store)
        else { return nil }
        return file.sections
    }

    static func save(name: String, in directory: URL, for controller: FetchedResultsController) {
        let file = FetchedResultsCacheFile(request: requestFingerprint(controller), store: storeFingerprint(controller.context.store),
                                           sections: controller.records.map { .init(name: $0.name, count: $0.count) })
        guard let data = try? JSONEncoder().encode(file) else { return }
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        // Atomic: a reader never sees half a file.
        try? data.write(to: url(name: name, in: directory), options: .atomic)
    }

    static func requestFingerprint(_ c: FetchedResultsController) -> String {
        let r = c.fetchRequest
        let sorts = r.sortDescriptors.map { "\($0.keyPath) \($0.ascending ? "asc" : "desc")\($0.caseInsensitive ? " ci" : "")" }
        return [
            "entity=" + r.entity,
            "predicate=" + (r.predicate.map { Printer.format($0) } ?? ""),
            "sort=" + sorts.joined(separator: ","),
            "section=" + (c.sectionNameKeyPath ?? ""),
            "limit=\(r.fetchLimit.map(String.init) ?? "") offset=\(r.fetchOffset)",
            "entities=" + c.context.model.entityNames.joined(separator: ","),
        ].joined(separator: "\n")
    }

    static func storeFingerprint(_ store: SQLStore) -> String {
        // Only a SQLite file can be stamped by its size and time; anything
        // else is known by this connection's own changes.
        let path = store.database.dialect == .sqlite ? store.database.location : ""
        guard !path.isEmpty, path != ":memory:", FileManager.default.fileExists(atPath: path) else {
            return "\(store.database.location) \(UInt(bitPattern: ObjectIdentifier(store).hashValue)) \(store.database.changeCounter)"
        }
        func stamp(_ p: String) -> String {
            var info = stat()
            // A missing or empty log says nothing beyond the main file (it
            // is created afresh when a connection opens).
            guard stat(p, &info) == 0, info.st_size > 0 else { return "-" }
            return "\(info.st_size) \(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
        }
        // Stamped where SQLite writes: through a link, the `-wal` that takes
        // another process's commits is beside the store, not beside the link.
        let file = SQLiteFilePath.resolvingLinks(path)
        return "\(path) \(stamp(file)) \(stamp(file + "-wal"))"
    }
}

extension FetchedResultsController {
    /// Where cache files go unless `cacheDirectory` says otherwise.
    public static var defaultCacheDirectory: URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("QuarryFetchedResultsCache", isDirectory: true)
    }

    /// Deletes the cache of that name, or every cache in the folder when
    /// `name` is nil (Core Data's `deleteCache(withName:)`).
    public static func deleteCache(withName name: String?, in directory: URL = defaultCacheDirectory) {
        let fm = FileManager.default
        if let name {
            try? fm.removeItem(at: FetchedResultsCache.url(name: name, in: directory))
        } else if let files = try? fm.contentsOfDirectory(atPath: directory.path) {
            for file in files where file.hasSuffix(".quarry-sections.json") {
                try? fm.removeItem(at: directory.appendingPathComponent(file))
            }
        }
    }

    /// Saves the sections to the cache when they are the store's own state
    /// (no unsaved change of the context could be in them).
    func writeCacheIfSaved() {
        guard let cacheName, fetched, !context.pendingAffects(fetchRequest) else { return }
        FetchedResultsCache.save(name: cacheName, in: cacheDirectory, for: self)
    }
}
