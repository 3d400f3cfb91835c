// The names a store mapping chose, as a value a store keeps: per entity its
// table, per attribute its column, per relationship its storage (and the
// order column of an ordered to-many kept as the destination's key), and the
// join tables. A Quarry store saves it beside its model (`_quarry_metadata`,
// key `layout`, JSON: StoreLayoutRecord+JSON.swift) when it is created and builds its mapping from it at
// every open (`StoreMapping(model:dialect:layout:)`), so a name, once
// chosen, never changes because another entity or relationship was added
// to the model: only what the record lacks is derived, and never under a
// name it already uses in that table.
//
// The record is keyed by the model's names; which side of a relationship
// holds the key, and the join tables' `source`/`target` columns, are in the
// storage as the mapping uses it.
import Foundation
import QuarryModel

/// Every table, column and join-table name of a store's layout.
///
/// ```swift
/// let record = StoreMapping(model: model).layoutRecord
/// let reopened = StoreMapping(model: newerModel, layout: record)   // old names kept, new ones derived
/// ```
public struct StoreLayoutRecord: Codable, Sendable, Equatable {
    /// The record's format: a later change of its shape reads older records by this.
    public var version = 1
    /// Entity name → where its rows and values live.
    public var entities: [String: EntityLayout] = [:]
    /// Every join table, in the order the schema creates them.
    public var joinTables: [JoinTableLayout] = []

    public init(entities: [String: EntityLayout] = [:], joinTables: [JoinTableLayout] = []) {
        self.entities = entities
        self.joinTables = joinTables
    }

    public struct EntityLayout: Codable, Sendable, Equatable {
        /// The table of the entity's hierarchy.
        public var table: String
        /// Attribute (own or inherited, stored) → column.
        public var columns: [String: String] = [:]
        /// Relationship (own or inherited, stored) → its storage.
        public var relationships: [String: RelationshipLayout] = [:]

        public init(table: String, columns: [String: String] = [:], relationships: [String: RelationshipLayout] = [:]) {
            self.table = table
            self.columns = columns
            self.relationships = relationships
        }
    }

    public struct RelationshipLayout: Codable, Sendable, Equatable {
        public var storage: RelationshipStorage
        /// For an ordered to-many kept as the destination's key: the order
        /// column on the destination's table (StoreMapping+Ordered.swift).
        public var orderColumn: String?

        public init(storage: RelationshipStorage, orderColumn: String? = nil) {
            self.storage = storage
            self.orderColumn = orderColumn
        }
    }

    public struct JoinTableLayout: Codable, Sendable, Equatable {
        public var table: String
        /// The tables whose keys its source and target columns hold.
        public var sourceTable: String
        public var targetTable: String
        /// Whether it has a position column (an ordered relationship).
        public var ordered: Bool

        public init(table: String, sourceTable: String, targetTable: String, ordered: Bool) {
            self.table = table
            self.sourceTable = sourceTable
            self.targetTable = targetTable
            self.ordered = ordered
        }
    }

    /// The `_quarry_metadata` key the record is saved under.
    public static let metadataKey = "layout"

    /// A record written by a later Quarry, in a format this one does not
    /// read. Not public: the store reports it as `StoreError.layoutMismatch`.
    struct UnknownVersion: Error, CustomStringConvertible {
        var version: Int
        var description: String { "its layout record has format \(version); this Quarry reads format 1" }
    }

    /// Per table, the columns the record's entities name there (attributes
    /// and foreign keys), folded as collisions are (`StorageNames.collisionKey`):
    /// the names a derived column must not take. Order columns are left
    /// out: they start with `_order_`, which no attribute or relationship can.
    func takenNames() -> [String: Set<String>] {
        var names: [String: Set<String>] = [:]
        for entity in entities.values {
            var set = names[entity.table, default: []]
            for c in entity.columns.values { set.insert(StorageNames.collisionKey(c)) }
            for r in entity.relationships.values {
                if case .foreignKey(let c) = r.storage { set.insert(StorageNames.collisionKey(c)) }
            }
            names[entity.table] = set
        }
        return names
    }
}

// Saved as {"kind": "foreignKey", "column": …}, {"kind": "joinTable", "table": …, "source": …, "target": …}.
extension RelationshipStorage: Codable {
    private enum Key: String, CodingKey { case kind, column, table, source, target }
    private enum Kind: String, Codable { case foreignKey, inverseForeignKey, joinTable }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        switch try c.decode(Kind.self, forKey: .kind) {
        case .foreignKey: self = .foreignKey(column: try c.decode(String.self, forKey: .column))
        case .inverseForeignKey: self = .inverseForeignKey(column: try c.decode(String.self, forKey: .column))
        case .joinTable:
            self = .joinTable(table: try c.decode(String.self, forKey: .table), sourceColumn: try c.decode(String.self, forKey: .source),
                              targetColumn: try c.decode(String.self, forKey: .target))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        switch self {
        case .foreignKey(let column):
            try c.encode(Kind.foreignKey, forKey: .kind)
            try c.encode(column, forKey: .column)
        case .inverseForeignKey(let column):
            try c.encode(Kind.inverseForeignKey, forKey: .kind)
            try c.encode(column, forKey: .column)
        case .joinTable(let table, let source, let target):
            try c.encode(Kind.joinTable, forKey: .kind)
            try c.encode(table, forKey: .table)
            try c.encode(source, forKey: .source)
            try c.encode(target, forKey: .target)
        }
    }
}

extension StoreMapping {
    /// The mapping's names as a record: what a new store saves, and what a
    /// migration saves for the model it migrated to.
    public var layoutRecord: StoreLayoutRecord {
        var record = StoreLayoutRecord()
        for entity in model.entities {
            guard let table = tables[entity.name] else { continue }
            var layout = StoreLayoutRecord.EntityLayout(table: table, columns: columns[entity.name] ?? [:])
            for (name, storage) in relationships[entity.name] ?? [:] {
                layout.relationships[name] = StoreLayoutRecord.RelationshipLayout(storage: storage, orderColumn: orderColumnNames[entity.name]?[name])
            }
            record.entities[entity.name] = layout
        }
        record.joinTables = joinTables.map {
            StoreLayoutRecord.JoinTableLayout(table: $0.table, sourceTable: $0.source, targetTable: $0.target, ordered: $0.ordered)
        }
        return record
    }
}
