// An entity as the planner sees it, resolved once when the mapping is made:
// its quoted table, the filter on `_entity` its rows need when it shares the
// table, and each key (own or inherited property) with its quoted column or
// relationship storage. Planning a fetch looks an entity up once and each key
// once, and quotes nothing, instead of a handful of dictionary lookups,
// quoting and copies of the model's property structs per path component.
// Classes, so a lookup hands out a reference rather than copying the
// attribute or relationship it describes.
import QuarryModel

/// Every entity of the model, by name. A class, so that the lowering context
/// holds it by reference: reaching it never copies the mapping struct.
final class MappedModel: Sendable {
    let entities: [String: MappedEntity]
    /// The model itself, for what the index does not answer (suggestions).
    let model: Model

    init(entities: [String: MappedEntity], model: Model) {
        self.entities = entities
        self.model = model
    }
}

final class MappedEntity: Sendable {
    let name: String
    let quotedTable: String
    /// `."_entity" IN (?, ?)`, to follow a row alias, with the entity names it
    /// binds; nil when every row of the table belongs to this entity.
    let filter: SQLFragment?
    /// `."_entity" = ?` binding this entity's own name, for a fetch without
    /// sub-entities; nil when its table holds no other entity.
    let exactFilter: SQLFragment?
    let keys: [String: MappedKey]
    /// The select list and columns of a row fetch (StoreMapping.rowSelect).
    let select: (list: SelectList, columns: [PlannedColumn])

    init(name: String, quotedTable: String, filter: SQLFragment?, exactFilter: SQLFragment?, keys: [String: MappedKey],
         select: (list: SelectList, columns: [PlannedColumn])) {
        self.name = name
        self.quotedTable = quotedTable
        self.filter = filter
        self.exactFilter = exactFilter
        self.keys = keys
        self.select = select
    }

    /// `alias."_entity" IN (...)`, or nil when no filter is needed.
    func filter(alias: String) -> SQLFragment? {
        filter.map { SQLFragment(alias + $0.sql, $0.arguments) }
    }

    /// The filter a request's own rows need: with sub-entities or without
    /// (`includesSubentities`).
    func filter(alias: String, includesSubentities: Bool) -> SQLFragment? {
        guard !includesSubentities else { return filter(alias: alias) }
        return exactFilter.map { SQLFragment(alias + $0.sql, $0.arguments) }
    }
}

final class MappedKey: Sendable {
    let property: Property
    /// An attribute's column, or the key column of a relationship stored as a
    /// foreign key on either side, quoted; nil when there is none (transient
    /// attributes, join tables).
    let quotedColumn: String?
    /// How a relationship is stored (nil for attributes and transient ones).
    let storage: RelationshipStorage?
    /// A relationship's destination entity (nil for other properties).
    let destination: String?
    let isToMany: Bool

    init(property: Property, quotedColumn: String?, storage: RelationshipStorage?) {
        self.property = property
        self.quotedColumn = quotedColumn
        self.storage = storage
        if case .relationship(let r) = property {
            destination = r.destination
            isToMany = r.isToMany
        } else {
            destination = nil
            isToMany = false
        }
    }
}

extension StoreMapping {
    /// Builds the planner's view of `entity` from the mapping's tables,
    /// columns, storage, filters and row selects (all computed before this
    /// runs).
    func makeMappedEntity(_ entity: Entity) -> MappedEntity {
        var keys: [String: MappedKey] = [:]
        for p in entity.allProperties(in: model) where keys[p.name] == nil {
            var quoted: String?
            var storage: RelationshipStorage?
            switch p {
            case .attribute(let a):
                quoted = column(for: a.name, of: entity.name).map(SQLIdentifier.quoted)
            case .relationship(let r):
                storage = self.storage(of: r.name, of: entity.name)
                switch storage {
                case .foreignKey(let c)?, .inverseForeignKey(let c)?: quoted = SQLIdentifier.quoted(c)
                default: break
                }
            case .fetchedProperty:
                break
            }
            keys[p.name] = MappedKey(property: p, quotedColumn: quoted, storage: storage)
        }
        let filter = entityFilter(for: entity.name).map { names in
            SQLFragment("." + SQLIdentifier.quoted(StoreMapping.entityColumn) + " IN (" + names.map { _ in "?" }.joined(separator: ", ") + ")",
                        names.map(Value.string))
        }
        let exactFilter = sharesTable(entity.name)
            ? SQLFragment("." + SQLIdentifier.quoted(StoreMapping.entityColumn) + " = ?", [.string(entity.name)]) : nil
        return MappedEntity(name: entity.name, quotedTable: SQLIdentifier.quoted(table(for: entity.name) ?? entity.name),
                            filter: filter, exactFilter: exactFilter, keys: keys, select: rowSelectList(for: entity.name) ?? (SelectList([]), []))
    }
}
