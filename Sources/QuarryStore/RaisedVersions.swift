// Row versions a database raised by itself. A Core Data store opened
// writable raises a row's version (Z_OPT) whenever the row changed without
// being claimed — a delete rule's cleanup of a row the context never
// loaded, an ordered to-many's positions rewritten in its unchanged members
// — as Core Data does, since an app's snapshot of the row must go stale
// (QuarryCoreData's CoreDataViews+Touched.swift). The context that saved
// may hold such a row, loaded and unchanged: its version must follow, or
// the context's next save of that object would claim the old version and
// fail with a conflict no other writer caused. Quarry's own layout raises
// nothing of the kind: the default reports nothing.

/// A row whose version the database raised at the last outermost COMMIT,
/// and the version it now has (one more than before).
public struct RaisedVersion: Sendable, Equatable {
    /// The store's table (as `StoreMapping.table(for:)` names it).
    public var table: String
    public var key: Int64
    public var version: Int64

    public init(table: String, key: Int64, version: Int64) {
        self.table = table
        self.key = key
        self.version = version
    }
}

extension SQLDatabase {
    /// Nothing raised: the database changes versions only where told to.
    public func takeRaisedVersions() -> [RaisedVersion] { [] }
}

extension Context {
    /// Brings the versions of registered objects whose rows `raised` names up
    /// to date. Only an object holding the version from just before the
    /// raise follows: one holding another version read it elsewhere and
    /// stays as it is (its next save finds out).
    func followRaisedVersions(_ raised: [RaisedVersion]) {
        guard !raised.isEmpty, store.mapping.storesVersions else { return }
        var entities: [String: [String]] = [:]
        for e in model.entities {
            if let table = store.mapping.table(for: e.name) { entities[table, default: []].append(e.name) }
        }
        for row in raised {
            for entity in entities[row.table] ?? [] {
                guard let object = registry[ObjectID(entity: entity, primaryKey: row.key)],
                      readVersion(of: object) == row.version - 1 else { continue }
                object.committed[StoreMapping.versionColumn] = .attribute(.int(row.version))
            }
        }
    }
}
