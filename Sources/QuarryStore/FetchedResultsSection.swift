// The vocabulary of the fetched-results controller: its sections, index
// paths, the kinds of change it reports, its delegate and its errors. These
// follow Core Data's NSFetchedResultsController names closely so that code
// written against Core Data reads the same here.
//
// Index paths are Foundation's `IndexPath`: on Apple platforms UIKit and
// AppKit add `section`/`item`/`row`; swift-corelibs-foundation has none of
// them, so they are added here (only where those frameworks are absent, so
// the two never clash).
import Foundation

#if !canImport(UIKit) && !canImport(AppKit)
extension IndexPath {
    /// An index path of a table or list: an item in a section.
    public init(item: Int, section: Int) { self.init(indexes: [section, item]) }
    /// The same as `init(item:section:)`, with UITableView's word.
    public init(row: Int, section: Int) { self.init(indexes: [section, row]) }
    /// The section (the first index).
    public var section: Int { self[0] }
    /// The item within the section (the second index).
    public var item: Int { self[1] }
    /// The same as `item`.
    public var row: Int { self[1] }
}
#endif

/// One section of a controller's results: the objects sharing one value of
/// the section key path (or all of them, when there is no section key path).
///
/// ```swift
/// for section in controller.sections ?? [] {
///     print(section.name, section.indexTitle ?? "", section.numberOfObjects)
/// }
/// ```
public struct FetchedResultsSection {
    /// The section key path's value, as text ("" for nil or no key path).
    public let name: String
    /// The title in a section index; nil when the name is empty.
    public let indexTitle: String?
    let slice: ArraySlice<ManagedObject>

    public var numberOfObjects: Int { slice.count }
    /// The section's objects, in the request's order.
    public var objects: [ManagedObject] { Array(slice) }
}

/// What happened to an object or a section.
public enum FetchedResultsChangeType: String, Sendable, Codable, CaseIterable {
    case insert, delete, move, update
}

/// The controller's delegate: told about changes once tracking is on.
/// Setting a delegate turns tracking on (Core Data's rule); every method has
/// a default that does nothing, so implement only what you need.
///
/// Order of calls for one change set: `controllerWillChangeContent`, the
/// section changes (deletes, then inserts), the object changes (deletes,
/// inserts, moves, updates), `controller(_:didChangeContentWith:)`, then
/// `controllerDidChangeContent`.
public protocol FetchedResultsDelegate: AnyObject {
    func controllerWillChangeContent(_ controller: FetchedResultsController)
    /// Deletes carry the old index path; inserts the new one; moves and
    /// updates both (an update's paths may differ when other rows moved).
    func controller(_ controller: FetchedResultsController, didChange object: ManagedObject, at indexPath: IndexPath?,
                    for type: FetchedResultsChangeType, newIndexPath: IndexPath?)
    /// Only `.insert` (new index) and `.delete` (old index) occur for sections.
    func controller(_ controller: FetchedResultsController, didChange section: FetchedResultsSection, atSectionIndex index: Int,
                    for type: FetchedResultsChangeType)
    /// The whole change set as a value, as iOS 13's snapshot method gives it.
    func controller(_ controller: FetchedResultsController, didChangeContentWith change: FetchedResultsChange)
    func controllerDidChangeContent(_ controller: FetchedResultsController)
    /// The section index title for a section name; the default is its first
    /// letter, capitalised.
    func controller(_ controller: FetchedResultsController, sectionIndexTitleForSectionName name: String) -> String?
}

extension FetchedResultsDelegate {
    public func controllerWillChangeContent(_ controller: FetchedResultsController) {}
    public func controller(_ controller: FetchedResultsController, didChange object: ManagedObject, at indexPath: IndexPath?,
                           for type: FetchedResultsChangeType, newIndexPath: IndexPath?) {}
    public func controller(_ controller: FetchedResultsController, didChange section: FetchedResultsSection, atSectionIndex index: Int,
                           for type: FetchedResultsChangeType) {}
    public func controller(_ controller: FetchedResultsController, didChangeContentWith change: FetchedResultsChange) {}
    public func controllerDidChangeContent(_ controller: FetchedResultsController) {}
    public func controller(_ controller: FetchedResultsController, sectionIndexTitleForSectionName name: String) -> String? {
        FetchedResultsController.defaultSectionIndexTitle(forSectionName: name)
    }
}

/// Misuse of a fetched-results controller.
public enum FetchedResultsError: Error, Equatable, CustomStringConvertible {
    /// The request has no sort descriptor: results would have no stable order.
    case missingSortDescriptors(entity: String)
    /// Objects of one section are not next to each other in the sorted
    /// results: the section key path does not order like the first sort key.
    case sectionsNotContiguous(section: String, keyPath: String, firstSortKey: String)
    /// `performFetch()` has not run (or failed).
    case notFetched
    /// An index path outside the results.
    case indexPathOutOfRange(section: Int, item: Int)

    public var description: String {
        switch self {
        case .missingSortDescriptors(let e):
            return "a fetched-results controller needs a request with at least one sort descriptor (\(e) request has none)"
        case .sectionsNotContiguous(let s, let k, let first):
            return "section '\(s)' appears in two places: the section key path '\(k)' must order the objects as the first sort descriptor ('\(first)') does — sort by '\(k)' first"
        case .notFetched:
            return "call performFetch() first"
        case .indexPathOutOfRange(let s, let i):
            return "no object at section \(s), item \(i)"
        }
    }
}
