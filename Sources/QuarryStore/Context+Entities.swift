// What a context knows of each entity, worked out once: its properties
// resolved by name (own and inherited, the nearest declaration winning, as
// `Entity.property(named:in:)` decides) and the layout of saved values its
// objects share. Every managed object points at its entity's `EntityInfo`
// instead of holding a copy of the `Entity` value (a struct of arrays,
// retained on every copy and released when the object goes), and a key read
// or set on an object finds its property here: a class handed back, not an
// `Attribute` struct copied out of the model per access. The key looked up
// last is remembered, since a loop over many objects asks for the same key
// again and again: the lookup is then one string compare, not a hash.
//
// The info is per context (objects are confined to their context's thread,
// so the memo needs no lock); an entity named by an ID but missing from the
// model gets an info of its own with no properties.

/// One entity as a context's objects see it.
final class EntityInfo {
    let entity: Entity
    /// How the entity's objects lay out their saved values: the stored
    /// attributes, then the to-ones kept as foreign keys (what a fill plan fills).
    let slots: ValueSlots
    /// Names that are attributes in `slots` (the to-ones follow them).
    let attributeSlotCount: Int
    private let byName: [String: PropertyInfo]
    // Unchecked: per context, one thread, short accesses (see ContextObject.swift).
    @exclusivity(unchecked) private var lastKey = ""
    @exclusivity(unchecked) private var lastFound: PropertyInfo?

    init(entity: Entity, model: Model, mapping: StoreMapping, link: ContextLink) {
        self.entity = entity
        self.link = link
        self.name = entity.name
        let attributes = entity.allAttributes(in: model).filter { !$0.isTransient }.map(\.name)
        var toOnes: [String] = []
        for r in entity.allRelationships(in: model) where !r.isToMany {
            if case .foreignKey? = mapping.storage(of: r.name, of: entity.name) { toOnes.append(r.name) }
        }
        // The row's version sits after the attributes, filled as one of them (StoreMapping+Versions.swift).
        let version = mapping.storesVersions ? [StoreMapping.versionColumn] : []
        let slots = ValueSlots(names: attributes + version + toOnes)
        self.slots = slots
        self.attributeSlotCount = attributes.count + version.count
        var byName: [String: PropertyInfo] = [:]
        let own = Set(entity.properties.map(\.name))
        for p in entity.allProperties(in: model) where byName[p.name] == nil {
            guard let resolved = entity.property(named: p.name, in: model) else { continue }
            byName[p.name] = PropertyInfo(resolved, isOwn: own.contains(p.name), slot: slots.index[p.name], slots: slots)
        }
        self.byName = byName
    }

    /// The entity's name (kept apart: every object's ID reads it).
    let name: String
    /// How the context's objects of the entity find it (an object holds its
    /// info anyway: one reference per object instead of two).
    let link: ContextLink

    /// The property named `key`, own or inherited.
    func property(_ key: String) -> PropertyInfo? {
        if let lastFound, key == lastKey { return lastFound }
        guard let found = byName[key] else { return nil }
        lastKey = key
        lastFound = found
        return found
    }
}

/// A property of an entity, resolved once per context.
final class PropertyInfo {
    enum Kind { case attribute, toOne, toMany, fetchedProperty }

    let name: String
    let kind: Kind
    let property: Property
    /// Declared on the entity itself (an inherited one needs the model, so
    /// a detached object does not see it, as before this cache existed).
    let isOwn: Bool
    /// Where the saved value sits in objects laid out by `slots`.
    let slot: Int?
    let slots: ValueSlots

    init(_ property: Property, isOwn: Bool, slot: Int?, slots: ValueSlots) {
        self.name = property.name
        switch property {
        case .attribute: kind = .attribute
        case .relationship(let r): kind = r.isToMany ? .toMany : .toOne
        case .fetchedProperty: kind = .fetchedProperty
        }
        self.property = property
        self.isOwn = isOwn
        self.slot = slot
        self.slots = slots
    }
}

extension Context {
    /// The info of the entity named `name` (made on first use).
    func entityInfo(named name: String) -> EntityInfo {
        if let last = lastEntityInfo, last.entity.name == name { return last }
        let info: EntityInfo
        if let known = entityInfos[name] {
            info = known
        } else {
            info = EntityInfo(entity: model.entity(named: name) ?? Entity(name: name), model: model, mapping: store.mapping, link: link)
            entityInfos[name] = info
        }
        lastEntityInfo = info
        return info
    }
}
