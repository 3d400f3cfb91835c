// FixturePlan: the model, the factories, the counts and the seed turned into
// everything generation needs — per concrete entity its count, primary-key
// range, columns and attribute generators; per to-one relationship its
// wiring; per join table its link plan. All checking happens here, before
// a byte is written: unknown names, generators that do not fit, counts a
// required relationship cannot meet, impossible uniqueness where it can be
// known in advance. Relationship planning is in FixturePlan+Relationships.swift.

/// One concrete entity's rows: count, keys, columns and generators.
final class EntityPlan {
    let entity: Entity
    let table: String
    let count: Int
    let firstKey: Int64
    /// Store columns: the attributes', then the to-one foreign keys'.
    var columns: [String] = []
    /// Property names in the same order (relationship names for foreign keys).
    var properties: [String] = []
    var generators: [AttributeGenerator] = []
    var wirings: [ToOneWiring] = []
    /// Uniqueness constraints over several attributes: their generator indexes.
    var constraints: [(indexes: [Int], seen: SeenValues)] = []
    let countLocation: FixtureLocation?

    init(entity: Entity, table: String, count: Int, firstKey: Int64, countLocation: FixtureLocation?) {
        self.entity = entity
        self.table = table
        self.count = count
        self.firstKey = firstKey
        self.countLocation = countLocation
    }
}

struct FixturePlan {
    let model: Model
    let mapping: StoreMapping
    let factories: Factories
    let seed: UInt64
    let reference: Double
    let edgeCases: Bool
    var entities: [EntityPlan] = []
    var links: [LinkPlan] = []
    var counts: [String: Int] = [:]
    var countLocations: [String: FixtureLocation] = [:]
    /// Uniqueness constraints' seen values, by declaring entity and properties:
    /// an inherited constraint covers the whole table, so its set is shared.
    let uniques = UniqueRegistry()

    /// 2024-01-01T00:00:00Z: dates are placed around a fixed instant, never "now".
    static let defaultReference = 725_846_400.0
    static let defaultCount = 10

    /// `layout`: the names of the store the rows go into (an existing
    /// store's saved layout); nil for a new store, whose names are derived.
    init(model: Model, factories: Factories, seed: UInt64, counts overrides: [String: Int], edgeCases: Bool,
         layout: StoreLayoutRecord? = nil) throws(FixtureError) {
        self.model = model
        self.mapping = StoreMapping(model: model, layout: layout)
        self.factories = factories
        self.seed = seed
        self.reference = factories.referenceDate ?? Self.defaultReference
        self.edgeCases = edgeCases
        try checkNames(overrides)
        try resolveCounts(overrides)
        var relationships = RelationshipPlanner(plan: self)
        // Keys: per table, entities in model order, 1-based.
        var nextKey: [String: Int64] = [:]
        for entity in model.entities where !entity.isAbstract {
            let table = mapping.table(for: entity.name)!
            let first = nextKey[table, default: 1]
            nextKey[table] = first + Int64(counts[entity.name]!)
            entities.append(EntityPlan(entity: entity, table: table, count: counts[entity.name]!, firstKey: first,
                                       countLocation: countLocations[entity.name]))
        }
        relationships.keys = Dictionary(uniqueKeysWithValues: entities.map { ($0.entity.name, ($0.firstKey, $0.count)) })
        for plan in entities {
            try buildAttributes(plan)
            try relationships.wire(plan)
            buildConstraints(plan)
        }
        links = try relationships.links()
    }

    func factory(_ entity: String) -> EntityFactory? { factories.entities[entity] }

    /// Where a problem with `entity`'s count should point.
    func place(_ entity: String) -> FixtureLocation {
        countLocations[entity] ?? factories.location(of: entity) ?? FixtureLocation(file: model.file)
    }

    // MARK: - Names

    private func checkNames(_ overrides: [String: Int]) throws(FixtureError) {
        let names = model.entityNames
        for name in overrides.keys.sorted() where model.entity(named: name) == nil {
            throw FixtureError(.unknownEntity, "--count names no entity '\(name)' (entities: \(names.joined(separator: ", ")))",
                               at: .commandLine, suggestion: Suggestions.closest(to: name, among: names))
        }
        for (name, factory) in factories.entities.sorted(by: { $0.key < $1.key }) {
            let at = factories.location(of: name) ?? FixtureLocation(file: factories.file)
            guard let entity = model.entity(named: name) else {
                throw FixtureError(.unknownEntity, "the model has no entity '\(name)' (entities: \(names.joined(separator: ", ")))",
                                   at: at, suggestion: Suggestions.closest(to: name, among: names))
            }
            let all = entity.allProperties(in: model).map(\.name)
            for key in factory.attributes.keys.sorted() where entity.attribute(named: key, in: model) == nil {
                let extra = entity.relationship(named: key, in: model) != nil ? "; '\(key)' is a relationship: list it under 'relationships:'" : ""
                throw FixtureError(.unknownProperty, "\(name) has no attribute '\(key)'\(extra)",
                                   at: factory.propertyLocations[key] ?? at, suggestion: extra.isEmpty ? Suggestions.closest(to: key, among: all) : nil)
            }
            for key in factory.relationships.keys.sorted() where entity.relationship(named: key, in: model) == nil {
                let extra = entity.attribute(named: key, in: model) != nil ? "; '\(key)' is an attribute: list it under 'attributes:'" : ""
                throw FixtureError(.unknownProperty, "\(name) has no relationship '\(key)'\(extra)",
                                   at: factory.propertyLocations[key] ?? at, suggestion: extra.isEmpty ? Suggestions.closest(to: key, among: all) : nil)
            }
        }
    }

    // MARK: - Counts

    /// Counts: `--count`, else the factory's, else made by a parent's `per`,
    /// else the default. Abstract entities have no rows of their own.
    private mutating func resolveCounts(_ overrides: [String: Int]) throws(FixtureError) {
        for entity in model.entities {
            let factory = factory(entity.name)
            if let n = overrides[entity.name] {
                counts[entity.name] = n
                countLocations[entity.name] = .commandLine
            } else if let n = factory?.count {
                counts[entity.name] = n
                countLocations[entity.name] = factory?.countLocation
            }
            if entity.isAbstract, let n = counts[entity.name], n > 0 {
                throw FixtureError(.invalidCount, "\(entity.name) is abstract: it has no objects of its own; give counts to its sub-entities",
                                   at: countLocations[entity.name])
            }
            if entity.isAbstract { counts[entity.name] = 0 }
        }
        // Children whose parents say how many each has (`per`), once the
        // parents' counts are known; more rounds for chains of them, until
        // a round derives nothing. The to-many relationships into each
        // entity are gathered once (scanning the model per entity per round
        // made this cubic in the number of entities).
        let incoming = RelationshipPlanner.toManyInto(model)
        for _ in 0..<model.entities.count {
            var derived = false
            for entity in model.entities where counts[entity.name] == nil {
                if let n = RelationshipPlanner.derivedCount(of: entity, in: self, incoming: incoming[entity.name] ?? []) {
                    counts[entity.name] = n
                    derived = true
                }
            }
            if !derived { break }
        }
        for entity in model.entities where counts[entity.name] == nil { counts[entity.name] = Self.defaultCount }
    }

    // MARK: - Attributes

    /// Attributes that get a column and generated values (transient ones
    /// have no column; derived ones are the store's to compute).
    func generatedAttributes(of entity: Entity) -> [Attribute] {
        entity.allAttributes(in: model).filter { !$0.isTransient && $0.derivation == nil && mapping.column(for: $0.name, of: entity.name) != nil }
    }

    private func buildAttributes(_ plan: EntityPlan) throws(FixtureError) {
        let entity = plan.entity
        let attributes = generatedAttributes(of: entity)
        let factory = factory(entity.name)
        let entitySeed = SplitMix64.derive(seed, entity.name)
        // Unique alone, or together with others.
        let single = Dictionary(declaredConstraints(of: entity).filter { $0.1.properties.count == 1 }.map { ($0.1.properties[0], $0.0) },
                                uniquingKeysWith: { a, _ in a })
        var nameColumn: Int?
        for attribute in attributes {
            let index = plan.generators.count
            let spec = factory?.attributes[attribute.name]
            let compiler = GeneratorCompiler(plan: self, entity: entity, attribute: attribute, factory: spec, seed: SplitMix64.derive(entitySeed, attribute.name))
            var generator = try compiler.generator(unique: single[attribute.name] != nil, count: plan.count, nameColumn: nameColumn)
            if let owner = single[attribute.name] { generator.seen = uniques.set(owner + "#" + attribute.name) }
            if edgeCases { generator = EdgeCases.apply(to: generator, reference: reference) }
            if attribute.type == .string, nameColumn == nil, case .text(.personName, _) = generator.source { nameColumn = index }
            plan.generators.append(generator)
            plan.columns.append(mapping.column(for: attribute.name, of: entity.name)!)
            plan.properties.append(attribute.name)
        }
    }

    /// Constraints over several properties, as indexes into the row (after
    /// the foreign keys are known). Rows that repeat one draw its attributes
    /// again, keeping the relationships' keys.
    func buildConstraints(_ plan: EntityPlan) {
        for (owner, c) in declaredConstraints(of: plan.entity) where c.properties.count > 1 {
            let indexes = c.properties.compactMap { p in plan.properties.firstIndex(of: p) }
            if indexes.count == c.properties.count, indexes.contains(where: { $0 < plan.generators.count }) {
                plan.constraints.append((indexes, uniques.set(owner + "#" + c.properties.joined(separator: ","))))
            }
        }
    }

    /// Uniqueness constraints of an entity and its ancestors, with the entity declaring each.
    func declaredConstraints(of entity: Entity) -> [(String, UniquenessConstraint)] {
        ([entity] + entity.ancestors(in: model)).flatMap { e in e.uniquenessConstraints.map { (e.name, $0) } }
    }
}

final class UniqueRegistry {
    private var sets: [String: SeenValues] = [:]
    func set(_ key: String) -> SeenValues {
        if let s = sets[key] { return s }
        let s = SeenValues()
        sets[key] = s
        return s
    }
}
