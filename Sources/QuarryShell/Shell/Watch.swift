// A watched SECTIONS statement (`.watch`): a fetched-results controller, with
// this object as its delegate, over a context of its own on the session's
// store. The shell's UPDATE, DELETE and INSERT write through the store, not
// through a context; while a watch is on they ask the store which objects
// they touched (batch requests with object-ID results) and merge those IDs
// into the watch's context, so the controller computes its change set from
// the changed objects alone, as an app's controller does after
// `context.merge(...)` — not by refetching and diffing.
//
// Sections are named the Core Data way (nil is "", true is "1"), as SECTIONS
// names them too; the headings are kept in order, before and after every
// change, to name the sections that index paths point into.
import Foundation

/// A section heading as SECTIONS prints it: the key's text and its index title.
struct SectionHeading: Equatable, Sendable {
    var name: String
    var indexTitle: String

    /// The heading of the section whose objects have key `value`: the value
    /// as cell text (NULL for none), and its first letter, capitalised.
    init(_ value: Value) {
        name = CellText.text(value)
        indexTitle = value.isNull ? "" : String(name.prefix(1)).uppercased()
    }

    init(name: String, indexTitle: String) {
        self.name = name
        self.indexTitle = indexTitle
    }
}

/// One change set the controller reported, with the section headings from
/// before and after it (deletes and moves' sources index the old sections,
/// inserts and moves' destinations the new ones).
struct WatchReport {
    var change: FetchedResultsChange
    var before: [SectionHeading]
    var after: [SectionHeading]
}

final class Watch: FetchedResultsDelegate {
    /// The SECTIONS statement, in canonical form (listings and JSON name it).
    let statement: String
    let context: Context
    let controller: FetchedResultsController
    /// The columns SECTIONS shows for the entity.
    let columns: [String]
    private let key: CompiledExpression
    /// The headings of the controller's sections, as of the last report.
    private(set) var headings: [SectionHeading] = []
    /// Change sets reported since the last `takeReports()`.
    private var pending: [FetchedResultsChange] = []
    /// What the last `takeReports()` returned (tests replay it on the old sections).
    private(set) var lastReports: [WatchReport] = []

    /// Fetches and starts tracking. Throws the controller's errors (no sort,
    /// sections not contiguous) and the store's.
    init(statement: String, store: SQLStore, request: FetchRequest, keyPath: String, key: CompiledExpression, columns: [String]) throws {
        self.statement = statement
        self.key = key
        self.columns = columns
        context = Context(store: store)
        controller = FetchedResultsController(fetchRequest: request, context: context, sectionNameKeyPath: keyPath)
        // A delegate before the fetch: the fetch then builds what tracking needs.
        controller.delegate = self
        try controller.performFetch()
        headings = currentHeadings()
    }

    // MARK: - Delegate

    func controller(_ controller: FetchedResultsController, didChangeContentWith change: FetchedResultsChange) {
        pending.append(change)
    }

    // MARK: - Merging what the shell's statements did

    /// A batch update through the store, its objects merged; returns how many.
    func batchUpdate(_ store: SQLStore, entity: String, predicate: QueryPredicate?,
                     set: [(String, QueryExpression)]) throws -> Int {
        guard case .objectIDs(let ids) = try store.batchUpdate(entity: entity, predicate: predicate, set: set, resultType: .objectIDs) else {
            return 0
        }
        // Updated objects the context never loaded are judged too: they may now match.
        context.merge(changes: ContextChanges(updated: Set(ids)))
        return ids.count
    }

    /// A batch delete through the store, every removed object (cascades
    /// included) merged; returns how many objects the predicate selected,
    /// as a plain DELETE reports.
    func batchDelete(_ store: SQLStore, entity: String, predicate: QueryPredicate?) throws -> Int {
        let deletion = try store.batchDeleteListingCascades(entity: entity, predicate: predicate)
        context.merge(changes: ContextChanges(deleted: Set(deletion.deleted)))
        return deletion.selected.count
    }

    /// An object the shell inserted.
    func inserted(_ id: ObjectID) {
        context.merge(changes: ContextChanges(inserted: [id]))
    }

    /// The change sets reported since the last call, with the headings they
    /// index; the headings are brought up to date.
    func takeReports() -> [WatchReport] {
        guard !pending.isEmpty else { lastReports = []; return [] }
        let before = headings
        headings = currentHeadings()
        let reports = pending.enumerated().map { i, change in
            // Several change sets for one statement: only the first starts
            // from the old headings and only the last ends at the new ones.
            WatchReport(change: change, before: i == 0 ? before : headings, after: headings)
        }
        pending = []
        lastReports = reports
        return reports
    }

    // MARK: - Reading the sections

    /// The controller's sections as SECTIONS prints them.
    func resultSections() -> [ResultSection] {
        zip(controller.sections ?? [], headings).map { section, heading in
            ResultSection(name: heading.name, indexTitle: heading.indexTitle,
                          rows: ResultSet(columns: columns, rows: section.objects.map(row)))
        }
    }

    var objectCount: Int { controller.fetchedObjects?.count ?? 0 }
    var sectionCount: Int { controller.sections?.count ?? 0 }

    private func row(_ object: ManagedObject) -> [Value] {
        columns.map { Self.printable(object.value(forKey: $0) ?? .null) }
    }

    /// A related object prints as its ID, as SECTIONS prints stored objects.
    static func printable(_ value: Value) -> Value {
        if case .object(let reference) = value, let related = reference.object as? ManagedObject {
            return .string(related.objectID.description)
        }
        return value
    }

    private func currentHeadings() -> [SectionHeading] {
        (controller.sections ?? []).map { SectionHeading(name: $0.name, indexTitle: $0.indexTitle ?? "") }
    }
}

extension Statement {
    /// Whether the statement writes to the store (what a watch reports on).
    var writes: Bool {
        switch self {
        case .insert, .update, .delete: return true
        default: return false
        }
    }
}
