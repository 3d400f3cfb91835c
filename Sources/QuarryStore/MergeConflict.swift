// What a save reports when rows it would write changed in the store since
// the context read them (optimistic locking: StoreMapping+Versions.swift)
// and the context's merge policy is `.error`, Core Data's default: one
// error listing every conflicting object — for each key that differs or
// that the object changed, the value the context read, the value now in
// the store and the object's new value — with nothing written.
import Foundation

/// One object whose row changed (or went) in the store since it was read.
public struct MergeConflict: Sendable, Equatable, CustomStringConvertible {
    /// One key of the object: what the context read, what the store holds
    /// now, and the unsaved value (nil: the object did not change it).
    /// To-one relationships read as the target's ID (`Department/3`).
    public struct Key: Sendable, Equatable {
        public let key: String
        public let read: Value
        public let store: Value
        public let new: Value?
    }

    public let objectID: ObjectID
    /// The row's version when the context read it, and now (nil: the row is gone).
    public let readVersion: Int64?
    public let storeVersion: Int64?
    /// The row was deleted in the store.
    public var deletedInStore: Bool { storeVersion == nil }
    /// The object itself was to be deleted by this save.
    public let objectDeleted: Bool
    /// Keys that differ between the read and the store, or that the object changed.
    public let keys: [Key]
    /// The "store" is a parent context: a child's save met changes its
    /// parent made since the child read the object (Context+Parent+Saving.swift);
    /// `store` then holds the parent's values, and there are no versions.
    public internal(set) var inParent = false

    public var description: String {
        var head = "\(objectID)"
        if inParent {
            head += deletedInStore ? " was deleted in the parent context since it was read" : " changed in the parent context since it was read"
        } else if deletedInStore {
            head += " was deleted in the store since it was read"
        } else {
            head += " changed in the store since it was read (version \(readVersion.map(String.init) ?? "?") → \(storeVersion!))"
        }
        if objectDeleted { head += "; this save deletes it" }
        let lines = keys.map { k in
            "  \(k.key): read \(Printer.format(k.read)), \(inParent ? "parent" : "store") \(Printer.format(k.store))" + (k.new.map { ", new \(Printer.format($0))" } ?? "")
        }
        return ([head] + lines).joined(separator: "\n")
    }
}

/// A save refused by the `.error` merge policy: every conflict of the save; nothing was written.
public struct MergeConflictError: Error, Equatable, CustomStringConvertible {
    public let conflicts: [MergeConflict]

    public var description: String {
        "the save conflicts with changes made in the \(conflicts.contains(where: \.inParent) ? "parent context" : "store") since the objects were read "
            + "(\(conflicts.count) object\(conflicts.count == 1 ? "" : "s"); nothing was written):\n"
            + conflicts.map(\.description).joined(separator: "\n")
    }

}

extension MergeConflictError: QuarryError {
    /// R008: the store changed under the save (R007 is a broken uniqueness constraint).
    public var report: ErrorReport {
        ErrorReport(code: "R008", message: description,
                    hints: ["refresh the objects (`refresh(_:mergeChanges:)`) and save again, or set the context's `mergePolicy`"])
    }
}
