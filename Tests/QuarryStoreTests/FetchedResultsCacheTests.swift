// The persistent mode: a controller with a cache name keeps its section
// names and counts on disk; the next performFetch with the same request on
// an unchanged store reuses them, and rebuilds them when the request, the
// store (written by anyone) or the cache file changed. deleteCache removes
// one cache or all.
import Foundation
import Testing
@testable import QuarryStore

@Suite("Fetched results: the section cache", .serialized)
struct FetchedResultsCacheTests {
    /// This process's folder of stores and caches, removed when it exits.
    static let root: URL = {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-frc-\(getpid())")
        atexit { try? FileManager.default.removeItem(at: FetchedResultsCacheTests.root) }
        return root
    }()

    /// A file store with the people of `peopleStore`, and a private cache folder.
    func fileStore() throws -> (path: String, cache: URL, ids: [String: ObjectID]) {
        let folder = Self.root.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("company.sqlite").path
        let store = try SQLStore(path: path, model: try ModelReader.read(from: Fixture.modelPath))
        var ids: [String: ObjectID] = [:]
        ids["Sales"] = try store.insert("Department", ["name": .string("Sales")])
        ids["Ops"] = try store.insert("Department", ["name": .string("Ops")])
        for (name, department) in [("Ann", "Sales"), ("Bob", "Sales"), ("Cy", "Ops"), ("Zoë", "Ops"), ("Émile", "Sales")] {
            ids[name] = try store.insert("Employee", ["name": .string(name)], toOne: ["department": ids[department]!])
        }
        store.connection.close()
        return (path, folder.appendingPathComponent("cache"), ids)
    }

    func controller(_ path: String, _ cache: URL, name: String = "people", delegate: RecordingDelegate? = nil) throws -> FetchedResultsController {
        let store = try SQLStore(path: path, model: try ModelReader.read(from: Fixture.modelPath))
        let c = FetchedResultsController(fetchRequest: try employees(sortedBy: ["department.name", "name"]), context: Context(store: store),
                                         sectionNameKeyPath: "department.name", cacheName: name)
        c.cacheDirectory = cache
        c.delegate = delegate
        return c
    }

    /// Another connection (as another process would) moves Cy to Sales; the
    /// context is returned so that its connection stays open (the commit
    /// then stays in the `-wal`).
    func moveCyToSales(_ path: String, _ ids: [String: ObjectID]) throws -> Context {
        let context = Context(store: try SQLStore(path: path, model: try ModelReader.read(from: Fixture.modelPath)))
        try context.object(with: ids["Cy"]!).setValue(context.object(with: ids["Sales"]!), forKey: "department")
        try context.save()
        return context
    }

    @Test func reusedWhenNothingChanged() throws {
        let (path, cache, _) = try fileStore()
        let first = try controller(path, cache)
        try first.performFetch()
        #expect(!first.lastFetchUsedCache)
        #expect(FileManager.default.fileExists(atPath: FetchedResultsCache.url(name: "people", in: cache).path))
        let second = try controller(path, cache)
        try second.performFetch()
        #expect(second.lastFetchUsedCache)
        #expect(second.snapshot == first.snapshot)
        #expect(layout(second) == ["Ops: Cy Zoë", "Sales: Ann Bob Émile"])
    }

    @Test func rebuiltWhenTheStoreChanged() throws {
        let (path, cache, ids) = try fileStore()
        let first = try controller(path, cache)
        try first.performFetch()
        let context = try moveCyToSales(path, ids)
        let again = try controller(path, cache)
        try again.performFetch()
        #expect(!again.lastFetchUsedCache)
        withExtendedLifetime(first) {}
        #expect(layout(again) == ["Ops: Zoë", "Sales: Ann Bob Cy Émile"])
        let third = try controller(path, cache)
        try third.performFetch()
        #expect(third.lastFetchUsedCache && layout(third) == layout(again))
        withExtendedLifetime(context) {}
    }

    /// A store opened through a symbolic link: another connection's commit,
    /// still only in the `-wal` beside the store itself, makes the next
    /// fetch rebuild (the fingerprint once stamped a `-wal` beside the link,
    /// which never exists, and reused the stale sections).
    @Test func rebuiltWhenTheStoreChangedThroughALink() throws {
        let (path, cache, ids) = try fileStore()
        let folder = Self.root.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let link = folder.appendingPathComponent("link.sqlite").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: path)
        let first = try controller(link, cache)
        try first.performFetch()
        let context = try moveCyToSales(path, ids)
        // Both connections are still open: the commit is in the -wal only.
        var wal = stat()
        #expect(stat(path + "-wal", &wal) == 0 && wal.st_size > 0)
        let again = try controller(link, cache)
        try again.performFetch()
        #expect(!again.lastFetchUsedCache)
        #expect(layout(again) == ["Ops: Zoë", "Sales: Ann Bob Cy Émile"])
        withExtendedLifetime(first) {}
        withExtendedLifetime(context) {}
    }

    @Test func rebuiltWhenTheRequestChanged() throws {
        let (path, cache, _) = try fileStore()
        let c = try controller(path, cache)
        try c.performFetch()
        c.fetchRequest.predicate = try Parser.parsePredicate("name != 'Zoë'")
        try c.performFetch()
        #expect(!c.lastFetchUsedCache)
        #expect(layout(c) == ["Ops: Cy", "Sales: Ann Bob Émile"])
        c.fetchRequest.sortDescriptors = [QuerySortDescriptor("department.name", ascending: false), QuerySortDescriptor("name")]
        try c.performFetch()
        #expect(!c.lastFetchUsedCache)
        #expect(layout(c) == ["Sales: Ann Bob Émile", "Ops: Cy"])
        try c.performFetch()
        #expect(c.lastFetchUsedCache)
    }

    @Test func trackingKeepsTheCacheCurrentAfterSaves() throws {
        let (path, cache, ids) = try fileStore()
        let delegate = RecordingDelegate()
        let c = try controller(path, cache, delegate: delegate)
        try c.performFetch()
        try c.context.delete(c.context.object(with: ids["Cy"]!))
        try c.context.save()
        #expect(layout(c) == ["Ops: Zoë", "Sales: Ann Bob Émile"])
        let next = try controller(path, cache)
        try next.performFetch()
        #expect(next.lastFetchUsedCache)
        #expect(layout(next) == layout(c))
    }

    @Test func unsavedChangesAreNotCached() throws {
        let (path, cache, ids) = try fileStore()
        let c = try controller(path, cache)
        try c.context.delete(c.context.object(with: ids["Cy"]!))
        try c.performFetch()
        #expect(layout(c) == ["Ops: Zoë", "Sales: Ann Bob Émile"])
        #expect(!FileManager.default.fileExists(atPath: FetchedResultsCache.url(name: "people", in: cache).path))
    }

    @Test func deleteCacheByNameOrAll() throws {
        let (path, cache, _) = try fileStore()
        for name in ["a", "b/with slash", "ç"] { try controller(path, cache, name: name).performFetch() }
        let files = { Set(try FileManager.default.contentsOfDirectory(atPath: cache.path)) }
        #expect(try files().count == 3)
        FetchedResultsController.deleteCache(withName: "b/with slash", in: cache)
        #expect(try files() == ["a.quarry-sections.json", "%e7.quarry-sections.json"])
        FetchedResultsController.deleteCache(withName: nil, in: cache)
        #expect(try files().isEmpty)
        let c = try controller(path, cache, name: "a")
        try c.performFetch()
        #expect(!c.lastFetchUsedCache)
    }

    @Test func aCorruptOrMismatchedCacheIsIgnored() throws {
        let (path, cache, _) = try fileStore()
        try controller(path, cache).performFetch()
        try Data("not json".utf8).write(to: FetchedResultsCache.url(name: "people", in: cache))
        let c = try controller(path, cache)
        try c.performFetch()
        #expect(!c.lastFetchUsedCache && layout(c) == ["Ops: Cy Zoë", "Sales: Ann Bob Émile"])
    }
}
