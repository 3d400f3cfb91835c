// Ordered to-many relationships in a context, as NSOrderedSet keeps them:
// `add(_:to:)` appends, `insert(_:at:into:)` puts a member at an index,
// `move(from:to:in:)` reorders, `remove(_:from:)` takes one out; the
// inverse follows as for any to-many, and undo restores the order. A save
// writes the order (ContextWriter+Ordered.swift); fetches and faults read
// the relationship back in it.
import Foundation

/// An ordered-relationship edit that cannot be made.
public struct OrderedRelationshipError: Error, Sendable, Equatable, CustomStringConvertible {
    public var entity: String
    public var key: String
    public var reason: String
    public var description: String { "\(entity).\(key): \(reason)" }
}

extension ManagedObject {
    /// Inserts `object` into the ordered to-many `key` at `index` (0…count);
    /// a member already there moves to `index`.
    ///
    /// ```swift
    /// try playlist.insert(song, at: 0, into: "songs")
    /// ```
    public func insert(_ object: ManagedObject, at index: Int, into key: String) throws {
        let context = try liveContext()
        let r = try orderedRelationship(key)
        try context.checkRelatable(object, to: r)
        try context.groupUndo {
            var ids = try context.toMany(self, r)
            if ids.contains(object.objectID) {
                ids.removeAll { $0 == object.objectID }
            } else {
                try context.addToMany(self, r, object)
            }
            guard index >= 0 && index <= ids.count else {
                throw OrderedRelationshipError(entity: entity.name, key: key, reason: "index \(index) is outside 0...\(ids.count)")
            }
            ids.insert(object.objectID, at: index)
            context.setPrimitive(self, r.name, .toMany(ids))
        }
    }

    /// Moves the member at `from` to index `to` of the ordered to-many `key`.
    public func move(from: Int, to: Int, in key: String) throws {
        let context = try liveContext()
        let r = try orderedRelationship(key)
        var ids = try context.toMany(self, r)
        guard ids.indices.contains(from), ids.indices.contains(to) else {
            throw OrderedRelationshipError(entity: entity.name, key: key, reason: "cannot move \(from) to \(to): the relationship has \(ids.count) members")
        }
        guard from != to else { return }
        let id = ids.remove(at: from)
        ids.insert(id, at: to)
        context.groupUndo { context.setPrimitive(self, r.name, .toMany(ids)) }
    }

    private func orderedRelationship(_ key: String) throws -> Relationship {
        guard let p = property(key), p.kind == .toMany, case .relationship(let r) = p.property else {
            throw ContextError.unknownKey(key, entity: entity.name, suggestion: nil)
        }
        guard r.isOrdered else {
            throw OrderedRelationshipError(entity: entity.name, key: key, reason: "the relationship is not ordered (use add(_:to:))")
        }
        return r
    }
}
