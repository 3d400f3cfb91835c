// The fetched-results controller: a sorted fetch cut into sections, kept up
// to date as its context changes — Core Data's NSFetchedResultsController.
// This file holds the state, `performFetch()` and the read-only accessors;
// change tracking is in FetchedResultsTracking.swift, the on-disk section
// cache in FetchedResultsCache.swift.
//
// The three modes are Core Data's: without a delegate the results stay as
// fetched; with a delegate every context event (`objectsDidChange`, which
// saves, merges and processed edits post, and `didSave`) is turned into a
// change set; with a delegate and a cache name the section names and counts
// are also kept on disk and reused by the next `performFetch()` when neither
// the request nor the store has changed since.
//
// State: `objects` in sort order, `records` (one per section: name and
// count, in order) and `starts` (each section's first index). Sections are
// runs of equal section names, so the section key path must order objects
// as the first sort key does (Core Data's rule); a name that appears twice
// is an error rather than a silently split section.
import Foundation

/// Sections of sorted fetch results, tracking the context's changes.
///
/// ```swift
/// var request = FetchRequest(entity: "Employee")
/// request.sortDescriptors = [QuerySortDescriptor("department.name"), QuerySortDescriptor("name")]
/// let controller = FetchedResultsController(fetchRequest: request, context: context,
///                                           sectionNameKeyPath: "department.name", cacheName: "employees")
/// controller.delegate = listView              // turns tracking on
/// try controller.performFetch()
/// let first = controller.object(at: IndexPath(item: 0, section: 0))
/// ```
public final class FetchedResultsController {
    /// The request; change it and call `performFetch()` again to refetch.
    public var fetchRequest: FetchRequest
    public let context: Context
    public let sectionNameKeyPath: String?
    /// Where the section cache lives on disk; nil: no cache.
    public let cacheName: String?
    /// The folder of cache files (default: `FetchedResultsController.defaultCacheDirectory`).
    public var cacheDirectory: URL = FetchedResultsController.defaultCacheDirectory
    /// Setting a delegate turns change tracking on; nil turns it off.
    public weak var delegate: (any FetchedResultsDelegate)? {
        didSet {
            // Another delegate ends a `changeSets()` stream.
            if let changeStream, delegate !== changeStream { self.changeStream = nil }
            startTracking()
        }
    }
    /// The delegate `changeSets()` installed, kept here (the delegate is weak).
    var changeStream: FetchedResultsChangeStream?

    /// Whether the last `performFetch()` took its sections from the cache.
    public internal(set) var lastFetchUsedCache = false
    /// The last change set reported (also given to the delegate).
    public internal(set) var lastChange: FetchedResultsChange?
    /// An error met while tracking a change (the results were refetched).
    public internal(set) var trackingError: Error?

    // MARK: State

    var objects: [ManagedObject] = []
    var records: [SectionRecord] = []
    var starts: [Int] = []
    var fetched = false
    var fetching = false
    var sortKeys: SortKeys?
    var sectionReader: KeyReader?
    var predicate: CompiledPredicate?
    /// Tracking only: each member's sort key when it was placed (to find
    /// its old position by binary search), members by ID, and unsaved
    /// members (checked on every event, since deleting an unsaved object
    /// that was already announced is not announced again).
    var members: [ObjectIdentifier: SortKey] = [:]
    var byID: [ObjectID: ManagedObject] = [:]
    var unsaved: [ObjectIdentifier: ManagedObject] = [:]
    var membersBuilt = false
    /// Events were missed while there was no delegate.
    var stale = false
    var handling = false
    var queued: [ContextEvent] = []
    var nextRecordID = 0
    var observer: ContextObserver?
    var builtSections: [FetchedResultsSection]?
    /// Objects that left the results in the change being reported (a merge
    /// may have taken them out of the context already).
    var removedObjects: [ObjectID: ManagedObject] = [:]

    public init(fetchRequest: FetchRequest, context: Context, sectionNameKeyPath: String? = nil, cacheName: String? = nil) {
        self.fetchRequest = fetchRequest
        self.context = context
        self.sectionNameKeyPath = sectionNameKeyPath
        self.cacheName = cacheName
        observer = context.addObserver { [weak self] event in self?.receive(event) }
    }

    deinit {
        if let observer { context.removeObserver(observer) }
    }

    // MARK: - Fetching

    /// Fetches the objects and builds the sections (from the cache when it
    /// is still valid). Throws when the request has no sort descriptor, the
    /// fetch fails, or the sections are not contiguous.
    public func performFetch() throws {
        try context.refuseInChild("a fetched results controller")   // Context+Parent.swift
        guard !fetchRequest.sortDescriptors.isEmpty else { throw FetchedResultsError.missingSortDescriptors(entity: fetchRequest.entity) }
        let options = context.store.evaluationOptions
        let keys = try SortKeys(fetchRequest.sortDescriptors, options: options)
        let reader = try sectionNameKeyPath.map { try KeyReader($0, options: options) }
        let compiled = try fetchRequest.predicate.map { try Evaluator.compile($0, options: options) }
        fetching = true
        defer { fetching = false }
        let result = try context.fetch(fetchRequest)
        var newRecords: [SectionRecord]? = nil
        lastFetchUsedCache = false
        if let cacheName, let cached = FetchedResultsCache.load(name: cacheName, in: cacheDirectory, for: self),
           cached.reduce(0, { $0 + $1.count }) == result.count, sectionNameKeyPath != nil || cached.count == 1 {
            newRecords = cached.map { makeRecord($0.name, count: $0.count) }
            lastFetchUsedCache = true
        }
        if newRecords == nil { newRecords = try sectionize(result, reader) }
        sortKeys = keys
        sectionReader = reader
        predicate = compiled
        objects = result
        records = newRecords!
        recomputeStarts()
        fetched = true
        stale = false
        members = [:]
        byID = [:]
        unsaved = [:]
        membersBuilt = false
        builtSections = nil
        if delegate != nil { try buildMembers() }
        if cacheName != nil && !lastFetchUsedCache { writeCacheIfSaved() }
    }

    /// Runs of equal section names; a name seen in an earlier run is an error.
    func sectionize(_ objects: [ManagedObject], _ reader: KeyReader?) throws -> [SectionRecord] {
        guard let reader else { return [makeRecord("", count: objects.count)] }
        var result: [SectionRecord] = []
        var seen: Set<String> = []
        var current: String? = nil
        var count = 0
        // The value the current name was made from (once `current` is set):
        // objects come sorted by it, so most repeat it and need no text made.
        var currentValue = Value.null
        for (i, object) in objects.enumerated() {
            // A second on a big fetch, with no SQL running that a Ctrl-C
            // (the store's interrupt) would stop: checked every 1,024 objects.
            if i & 1023 == 0 { try context.store.checkInterrupt() }
            let value = try reader.read(object)
            if current != nil, value == currentValue { count += 1; continue }
            currentValue = value
            let name = SectionNames.text(value)
            if name == current { count += 1; continue }
            if let current { result.append(makeRecord(current, count: count)) }
            guard seen.insert(name).inserted else {
                throw FetchedResultsError.sectionsNotContiguous(section: name, keyPath: reader.keyPath,
                                                                firstSortKey: fetchRequest.sortDescriptors[0].keyPath)
            }
            current = name
            count = 1
        }
        if let current { result.append(makeRecord(current, count: count)) }
        return result
    }

    func makeRecord(_ name: String, count: Int) -> SectionRecord {
        nextRecordID += 1
        return SectionRecord(id: nextRecordID, name: name, count: count)
    }

    func recomputeStarts() {
        starts = []
        starts.reserveCapacity(records.count)
        var at = 0
        for r in records {
            starts.append(at)
            at += r.count
        }
    }

    /// Sort keys of every member (tracking needs them to place changes).
    func buildMembers() throws {
        guard let sortKeys else { return }
        members.reserveCapacity(objects.count)
        byID.reserveCapacity(objects.count)
        for object in objects {
            members[ObjectIdentifier(object)] = try sortKeys.key(of: object)
            byID[object.objectID] = object
            if object.objectID.isTemporary { unsaved[ObjectIdentifier(object)] = object }
        }
        membersBuilt = true
    }

    // MARK: - Reading the results

    /// The fetched objects in order; nil before `performFetch()`.
    public var fetchedObjects: [ManagedObject]? { fetched ? objects : nil }

    /// The sections; nil before `performFetch()`. Without a section key
    /// path there is exactly one section, named "", even when it is empty.
    public var sections: [FetchedResultsSection]? {
        guard fetched else { return nil }
        if let builtSections { return builtSections }
        let built = records.enumerated().map { i, r in
            FetchedResultsSection(name: r.name, indexTitle: sectionIndexTitle(forSectionName: r.name),
                                  slice: objects[starts[i]..<starts[i] + r.count])
        }
        builtSections = built
        return built
    }

    /// The section index titles, in section order, each once.
    public var sectionIndexTitles: [String] {
        guard fetched else { return [] }
        var titles: [String] = []
        var seen: Set<String> = []
        for r in records {
            if let t = sectionIndexTitle(forSectionName: r.name), seen.insert(t).inserted { titles.append(t) }
        }
        return titles
    }

    /// The delegate's title for a section name, or the default: the name's
    /// first letter (a whole grapheme: "É", "佐"), capitalised; nil for "".
    public func sectionIndexTitle(forSectionName name: String) -> String? {
        if let delegate { return delegate.controller(self, sectionIndexTitleForSectionName: name) }
        return Self.defaultSectionIndexTitle(forSectionName: name)
    }

    /// Core Data's default: the capitalised first letter. Accents stay
    /// ("émile" → "É"), as `capitalizedString` keeps them; "ß" becomes "Ss".
    public static func defaultSectionIndexTitle(forSectionName name: String) -> String? {
        guard let first = name.first else { return nil }
        return String(first).capitalized
    }

    /// The section for a title of the section index (`index` is the title's
    /// position in `sectionIndexTitles`, used when titles repeat): the first
    /// section with that title, or nil when none has it.
    public func section(forSectionIndexTitle title: String, at index: Int) -> Int? {
        guard fetched else { return nil }
        return records.firstIndex { sectionIndexTitle(forSectionName: $0.name) == title }
    }

    /// The object at an index path. Like Core Data, a path outside the
    /// results is a programming error (it traps); `object(ifAt:)` does not.
    public func object(at indexPath: IndexPath) -> ManagedObject {
        guard let object = object(ifAt: indexPath) else {
            preconditionFailure(FetchedResultsError.indexPathOutOfRange(section: indexPath.section, item: indexPath.item).description)
        }
        return object
    }

    /// The object at an index path, or nil when there is none.
    public func object(ifAt indexPath: IndexPath) -> ManagedObject? {
        guard fetched, indexPath.count == 2, records.indices.contains(indexPath.section),
              indexPath.item >= 0, indexPath.item < records[indexPath.section].count else { return nil }
        return objects[starts[indexPath.section] + indexPath.item]
    }

    /// Where an object is, or nil when it is not in the results. O(log n)
    /// while tracking (binary search on its sort key), O(n) otherwise.
    public func indexPath(for object: ManagedObject) -> IndexPath? {
        guard fetched else { return nil }
        let index: Int?
        if membersBuilt {
            index = members[ObjectIdentifier(object)].flatMap { position(of: object, key: $0) }
        } else {
            index = objects.firstIndex { $0 === object }
        }
        return index.map(indexPath(atGlobal:))
    }

    func indexPath(atGlobal index: Int) -> IndexPath {
        let s = section(containing: index)
        return IndexPath(item: index - starts[s], section: s)
    }

    /// The section holding the object at `index` (empty sections skipped).
    func section(containing index: Int) -> Int {
        var lo = 0, hi = starts.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if starts[mid] <= index { lo = mid + 1 } else { hi = mid }
        }
        var s = max(lo - 1, 0)
        while s > 0 && records[s].count == 0 { s -= 1 }
        return s
    }

    /// The controller's sections by object ID.
    public var snapshot: FetchedResultsSnapshot {
        guard fetched else { return FetchedResultsSnapshot(sections: []) }
        return FetchedResultsSnapshot(sections: records.enumerated().map { i, r in
            .init(name: r.name, objectIDs: objects[starts[i]..<starts[i] + r.count].map(\.objectID))
        })
    }
}

/// One section while tracking: a stable identity (names can repeat for a
/// moment while changes are applied), its name and its count.
struct SectionRecord {
    let id: Int
    var name: String
    var count: Int
}
