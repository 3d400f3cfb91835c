// Planning relationships: which wiring each foreign key gets, the link plan
// of each join table, the counts that parents' `per` makes for children,
// and every check that counts can meet the model: required to-ones need a
// target, a to-many's minimum needs enough children, its maximum must hold
// them all (or the rest go without a parent, when that is allowed). Errors
// name the relationship and point at its factory or at the count to change.

struct RelationshipPlanner {
    let plan: FixturePlan
    /// Concrete entity → (first key, count).
    var keys: [String: (Int64, Int)] = [:]
    private var wirings: [String: ToOneWiring] = [:]
    /// Each entity's place in the model, to put a family in model order.
    private let positions: [String: Int]

    init(plan: FixturePlan) {
        self.plan = plan
        var positions: [String: Int] = [:]
        for (i, e) in plan.model.entities.enumerated() where positions[e.name] == nil { positions[e.name] = i }
        self.positions = positions
    }

    var model: Model { plan.model }

    /// Keys of every object that is a kind of `name`, in model order. The
    /// family comes from the model's sub-entity index, not a scan of every
    /// entity, which made planning quadratic in the number of entities.
    func keySpace(_ name: String) -> KeySpace {
        var space = KeySpace()
        let model = self.model
        guard let entity = model.entity(named: name) else { return space }
        let family = ([entity] + entity.allSubentities(in: model)).sorted { positions[$0.name]! < positions[$1.name]! }
        for e in family where !e.isAbstract {
            if let k = keys[e.name], k.1 > 0 { space.segments.append((k.0, k.1)) }
        }
        return space
    }

    /// The entity that declares `relationship` among `entity` and its ancestors.
    func declaring(_ relationship: String, of entity: Entity) -> String {
        ([entity] + entity.ancestors(in: model)).first { $0.relationships.contains { $0.name == relationship } }?.name ?? entity.name
    }

    func inverse(of r: Relationship) -> Relationship? {
        r.inverse.flatMap { model.entity(named: r.destination)?.relationship(named: $0, in: model) }
    }

    static func minimum(_ r: Relationship) -> Int { max(r.minCount, r.isOptional ? 0 : 1) }

    func fail(_ message: String, _ factories: [RelationshipFactory?], _ entities: [String]) -> FixtureError {
        let at = factories.compactMap { $0?.location }.first ?? entities.map { plan.place($0) }.first
        return FixtureError(.unsatisfiableRelationship, message, at: at)
    }

    // MARK: - To-one

    mutating func wire(_ entityPlan: EntityPlan) throws(FixtureError) {
        let entity = entityPlan.entity
        for r in entity.allRelationships(in: model) where !r.isTransient {
            guard case .foreignKey(let column)? = plan.mapping.storage(of: r.name, of: entity.name) else { continue }
            let owner = declaring(r.name, of: entity)
            let key = owner + "." + r.name
            if wirings[key] == nil { wirings[key] = try makeWiring(r, owner: owner) }
            entityPlan.columns.append(column)
            entityPlan.properties.append(r.name)
            entityPlan.wirings.append(wirings[key]!)
        }
    }

    func makeWiring(_ r: Relationship, owner: String) throws(FixtureError) -> ToOneWiring {
        let children = keySpace(owner), parents = keySpace(r.destination)
        let n = children.count, p = parents.count
        let label = "\(owner).\(r.name)"
        let here = plan.factory(owner)?.relationships[r.name]
        let inverse = inverse(of: r)
        let there = inverse.flatMap { plan.factory(r.destination)?.relationships[$0.name] }
        if let ratio = here?.nullRatio, ratio > 0, !r.isOptional {
            throw FixtureError(.invalidGenerator, "\(label) is required, so its null ratio must be 0", at: here?.location)
        }
        let nullRatio = r.isOptional ? (here?.nullRatio ?? (plan.edgeCases ? 0.25 : 0)) : 0
        var random = FixtureRandom(seed: plan.seed, name: label)
        if !r.isOptional, p == 0, n > 0 {
            throw fail("\(label) is required, but there are no \(r.destination) objects for \(n) \(owner) objects (give \(r.destination) a count)",
                       [here, there], [r.destination, owner])
        }
        let shape = there?.distribution ?? here?.distribution ?? .uniform
        let skew = there?.skew ?? here?.skew ?? 1
        guard let inverse else {
            let weights = shapeWeights(p, shape, skew: skew, &random)
            return IndependentPick(targets: parents, weights: weights, nullRatio: p == 0 ? 1 : nullRatio, random: random)
        }
        let inverseLabel = "\(r.destination).\(inverse.name)"
        if !inverse.isToMany {
            // One-to-one: pair shuffled positions.
            let ownerRequired = !r.isOptional, otherRequired = !inverse.isOptional
            if ownerRequired, p < n {
                throw fail("\(label) is required and one-to-one: \(n) \(owner) objects need as many \(r.destination) objects, but there are \(p)", [here, there], [r.destination, owner])
            }
            if otherRequired, n < p {
                throw fail("\(inverseLabel) is required and one-to-one: \(p) \(r.destination) objects need as many \(owner) objects, but there are \(n)", [there, here], [owner, r.destination])
            }
            let pairs = ownerRequired ? n : otherRequired ? p : min(n, p) - Int((Double(min(n, p)) * nullRatio).rounded())
            return OneToOnePairing(ownerCount: n, targets: parents, pairs: pairs, random: &random)
        }
        // Many-to-one: plan children per parent within the inverse's bounds.
        let lo = Self.minimum(inverse), hi = inverse.maxCount
        var nulls = Int((Double(n) * nullRatio).rounded())
        var nonNull = n - nulls
        if let hi, nonNull > p * hi {
            guard r.isOptional else {
                throw fail("\(label) is required, but \(inverseLabel) holds at most \(hi) each: \(p) \(r.destination) objects hold \(p * hi), not \(n) \(owner) objects",
                           [there, here], [owner, r.destination])
            }
            nonNull = p * hi
        }
        if nonNull < p * lo {
            nonNull = min(n, p * lo)
            guard nonNull >= p * lo else {
                throw fail("\(inverseLabel) needs at least \(lo) each: \(p) \(r.destination) objects need \(p * lo) \(owner) objects, but there are \(n)",
                           [there, here], [owner, r.destination])
            }
        }
        nulls = n - nonNull
        var counts: [Int]
        if let per = there?.per {
            if per.lowerBound < lo || (hi.map { per.upperBound > $0 } ?? false) {
                throw FixtureError(.invalidGenerator, "\(inverseLabel): per \(per.lowerBound)...\(per.upperBound) is outside the model's \(lo)...\(hi.map(String.init) ?? "∞")",
                                   at: there?.location)
            }
            let base = Self.perParent(p, per, shape, skew, seed: plan.seed, label: inverseLabel)
            counts = base.reduce(0, +) == nonNull ? base
                : ParentAssignment.plan(total: nonNull, weights: base.map { UInt64($0) + 1 }, minimum: lo, maximum: hi, random: &random)
        } else {
            let weights = shapeWeights(p, shape, skew: skew, &random)
            counts = ParentAssignment.plan(total: nonNull, weights: weights, minimum: lo, maximum: hi, random: &random)
        }
        return ParentAssignment(parents: parents, counts: counts, nulls: nulls, random: random)
    }

    /// Children per parent drawn from `per` with the shape (the same draws
    /// whether they make the children's count or only weigh it).
    static func perParent(_ parents: Int, _ per: ClosedRange<Int>, _ shape: DistributionShape, _ skew: Double,
                          seed: UInt64, label: String) -> [Int] {
        var r = FixtureRandom(seed: seed, name: label + "#per")
        let width = UInt64(per.upperBound - per.lowerBound)
        return (0..<parents).map { _ in per.lowerBound + Int(ValueSource.draw(width, shape, skew, &r)) }
    }

    /// The count `per` makes for `entity`: the sum of its parents' draws,
    /// when a parent's factory gives `per` for a to-many to exactly this
    /// entity and the parent's own count is known.
    /// Per destination entity, the to-many relationships (of every entity,
    /// inherited ones included) that lead to it, in model order.
    static func toManyInto(_ model: Model) -> [String: [(parent: Entity, relationship: Relationship)]] {
        var result: [String: [(parent: Entity, relationship: Relationship)]] = [:]
        for parent in model.entities {
            for r in parent.allRelationships(in: model) where r.isToMany {
                result[r.destination, default: []].append((parent, r))
            }
        }
        return result
    }

    /// `incoming`: the to-many relationships into `entity` (`toManyInto`).
    static func derivedCount(of entity: Entity, in plan: FixturePlan,
                             incoming: [(parent: Entity, relationship: Relationship)]) -> Int? {
        let model = plan.model
        guard entity.allSubentities(in: model).isEmpty else { return nil }
        for (parent, r) in incoming {
            guard let per = plan.factory(parent.name)?.relationships[r.name]?.per,
                  let inverseName = r.inverse, let inverse = entity.relationship(named: inverseName, in: model), !inverse.isToMany
            else { continue }
            let kinds = ([parent] + parent.allSubentities(in: model)).filter { !$0.isAbstract }
            guard kinds.allSatisfy({ plan.counts[$0.name] != nil }) else { return nil }
            let total = kinds.reduce(0) { $0 + plan.counts[$1.name]! }
            let f = plan.factory(parent.name)!.relationships[r.name]!
            return perParent(total, per, f.distribution, f.skew, seed: plan.seed, label: "\(parent.name).\(r.name)").reduce(0, +)
        }
        return nil
    }

    // MARK: - Join tables

    func links() throws(FixtureError) -> [LinkPlan] {
        var result: [LinkPlan] = []
        let owners = joinOwners()
        for join in plan.mapping.joinTables {
            guard let (owner, r) = owners[join.table] else { continue }
            let inverse = inverse(of: r)
            let here = plan.factory(owner)?.relationships[r.name]
            let there = inverse.flatMap { plan.factory(r.destination)?.relationships[$0.name] }
            // Generate from the side whose factory says `per`.
            let swap = here?.per == nil && there?.per != nil && inverse != nil && !join.ordered
            let (gen, other) = swap ? (there, here) : (here, there)
            let sources = keySpace(swap ? r.destination : owner), targets = keySpace(swap ? owner : r.destination)
            let sourceRel = swap ? inverse! : r
            let label = swap ? "\(r.destination).\(inverse!.name)" : "\(owner).\(r.name)"
            let lo = Self.minimum(sourceRel), hi = sourceRel.maxCount
            let targetRel = swap ? r : inverse
            let tlo = targetRel.map(Self.minimum) ?? 0, thi = targetRel?.maxCount
            let s = sources.count, t = targets.count
            if let per = gen?.per, per.lowerBound < lo || (hi.map { per.upperBound > $0 } ?? false) {
                throw FixtureError(.invalidGenerator, "\(label): per \(per.lowerBound)...\(per.upperBound) is outside the model's \(lo)...\(hi.map(String.init) ?? "∞")",
                                   at: gen?.location)
            }
            var degree = gen?.per ?? lo...max(lo, min(hi ?? 3, 3))
            degree = degree.clamped(to: 0...max(0, t))
            if s > 0, lo > t {
                throw fail("\(label) needs at least \(lo) distinct related objects each, but there are only \(t)", [gen, other], [r.destination, owner])
            }
            if t > 0, s * degree.upperBound < t * tlo {
                throw fail("\(targetRel.map { "\(swap ? owner : r.destination).\($0.name)" } ?? label) needs at least \(tlo) each: \(t) objects need \(t * tlo) links, but \(s) objects make at most \(s * degree.upperBound)",
                           [other, gen], [swap ? r.destination : owner])
            }
            if let thi, s * degree.lowerBound > t * thi {
                throw fail("\(label): \(s) objects need at least \(s * degree.lowerBound) links, but \(t) objects take at most \(t * thi)", [gen, other], [swap ? owner : r.destination])
            }
            guard s > 0, t > 0 else { continue }
            result.append(LinkPlan(table: join.table, swapped: swap, ordered: join.ordered, label: label, sources: sources, targets: targets,
                                   degree: degree, degreeShape: gen?.distribution ?? .uniform, targetMinimum: tlo, targetMaximum: thi,
                                   targetShape: other?.distribution ?? .uniform, targetSkew: other?.skew ?? 1,
                                   seed: SplitMix64.derive(plan.seed, "link:" + join.table)))
        }
        return result
    }

    /// The entity and relationship whose storage names `table` as source → target.
    /// The owning side of every join table, found in one pass over the
    /// model (looking each table up by scanning was quadratic); the first
    /// owner in model order, as the scan found it.
    func joinOwners() -> [String: (String, Relationship)] {
        var owners: [String: (String, Relationship)] = [:]
        for e in model.entities {
            for r in e.relationships {
                if let storage = plan.mapping.storage(of: r.name, of: e.name), storage.isJoinTableOwner, case .joinTable(let table, _, _) = storage,
                   owners[table] == nil {
                    owners[table] = (e.name, r)
                }
            }
        }
        return owners
    }
}
