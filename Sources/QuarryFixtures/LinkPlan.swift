// Many-to-many relationships (and to-many ones without an inverse): rows of
// a join table, written after every object exists (the join tables'
// foreign keys are checked at once, not at commit).
//
// Each source object gets a number of distinct targets — its degree, drawn
// within the relationship's min/max (or the factory's `per`) — and the
// inverse's bounds hold for every target: the first links go round-robin
// over a shuffled order of the targets until each has its minimum, the rest
// are drawn by weight and skip targets at their maximum. A first pass over
// the degrees (cheap: one draw each, same seed) tells whether they add up
// to the targets' minimum; the real pass lends the difference. Memory: a
// counter per target only when targets have a maximum, weights per target
// only when their popularity is skewed; otherwise O(1) — a million
// employees on projects cost no million-entry arrays.

final class LinkPlan {
    let table: String
    /// Whether generated (source, target) pairs go into the table as
    /// (target, source): when the factory describes the inverse side.
    let swapped: Bool
    let ordered: Bool
    let label: String
    let sources: KeySpace
    let targets: KeySpace
    let degree: ClosedRange<Int>
    let degreeShape: DistributionShape
    let targetMinimum: Int
    let targetMaximum: Int?
    let targetShape: DistributionShape
    let targetSkew: Double
    let seed: UInt64

    init(table: String, swapped: Bool, ordered: Bool, label: String, sources: KeySpace, targets: KeySpace,
         degree: ClosedRange<Int>, degreeShape: DistributionShape, targetMinimum: Int, targetMaximum: Int?,
         targetShape: DistributionShape, targetSkew: Double, seed: UInt64) {
        self.table = table
        self.swapped = swapped
        self.ordered = ordered
        self.label = label
        self.sources = sources
        self.targets = targets
        self.degree = degree
        self.degreeShape = degreeShape
        self.targetMinimum = targetMinimum
        self.targetMaximum = targetMaximum
        self.targetShape = targetShape
        self.targetSkew = targetSkew
        self.seed = seed
    }

    private func degrees() -> FixtureRandom { FixtureRandom(seed: seed, name: "degrees") }

    private func drawDegree(_ r: inout FixtureRandom) -> Int {
        degree.lowerBound + Int(ValueSource.draw(UInt64(degree.count - 1), degreeShape, 1, &r))
    }

    /// Emits (source key, target key, position) for every link, in source order.
    func generate(_ emit: (Int64, Int64, Int) throws -> Void) throws {
        var links = makeIterator()
        while let (s, t, p) = try links.next() { try emit(s, t, p) }
    }

    func makeIterator() -> LinkIterator { LinkIterator(plan: self) }

    fileprivate func degreeStream() -> FixtureRandom { degrees() }
    fileprivate func degree(_ r: inout FixtureRandom) -> Int { drawDegree(&r) }
}

/// The links of one join table, one at a time: each source's targets are
/// chosen when its first link is asked for.
struct LinkIterator {
    let plan: LinkPlan
    private var degreeRandom: FixtureRandom
    private var random: FixtureRandom
    private var order: AffinePermutation
    private var taken: [Int32]
    /// Per-target weights, when skewed or capped; nil draws uniformly.
    private var sampler: WeightedSampler?
    private var cursor = 0
    private var deficit = 0
    private var surplus = 0
    private var source = -1
    private var chosen: [Int] = []
    private var position = 0

    init(plan: LinkPlan) {
        self.plan = plan
        let sourceCount = plan.sources.count, targetCount = plan.targets.count
        // Dry pass: the degrees' sum, against what targets need and allow.
        var dry = plan.degreeStream()
        var sum = 0
        if targetCount > 0 { for _ in 0..<sourceCount { sum += plan.degree(&dry) } }
        deficit = max(0, plan.targetMinimum * targetCount - sum)
        surplus = plan.targetMaximum.map { max(0, sum - $0 * targetCount) } ?? 0
        degreeRandom = plan.degreeStream()
        random = FixtureRandom(seed: plan.seed, name: "targets")
        order = AffinePermutation(count: targetCount, random: &random)
        taken = plan.targetMaximum == nil ? [] : [Int32](repeating: 0, count: targetCount)
        if plan.targetShape != .uniform || plan.targetMaximum != nil {
            var weightsRandom = FixtureRandom(seed: plan.seed, name: "weights")
            sampler = WeightedSampler(weights: shapeWeights(targetCount, plan.targetShape, skew: plan.targetSkew, &weightsRandom))
        }
    }

    /// The next (source key, target key, position), or nil at the end.
    mutating func next() throws(FixtureError) -> (Int64, Int64, Int)? {
        while position >= chosen.count {
            source += 1
            guard source < plan.sources.count, plan.targets.count > 0 else { return nil }
            try choose()
            position = 0
        }
        defer { position += 1 }
        return (plan.sources.key(source), plan.targets.key(chosen[position]), position)
    }

    private mutating func choose() throws(FixtureError) {
        let targetCount = plan.targets.count
        let degree = plan.degree
        var k = plan.degree(&degreeRandom)
        if deficit > 0 { let extra = min(degree.upperBound - k, deficit); k += extra; deficit -= extra }
        if surplus > 0 { let less = min(k - degree.lowerBound, surplus); k -= less; surplus -= less }
        chosen.removeAll(keepingCapacity: true)
        // Round-robin coverage first: consecutive positions of the shuffled
        // order are distinct targets while k ≤ the number of targets.
        let coverage = plan.targetMinimum * targetCount
        while chosen.count < k, cursor < coverage {
            let t = order(cursor % targetCount)
            cursor += 1
            // Already at its maximum (random picks got there first): covered.
            if let max = plan.targetMaximum, Int(taken[t]) >= max { continue }
            chosen.append(t)
        }
        var misses = 0
        while chosen.count < k {
            guard let t = sampler.map({ $0.draw(&random) }) ?? random.index(targetCount) else { break }
            if chosen.contains(t) {
                misses += 1
                if misses > 32 {
                    let weights = sampler?.weights, picked = chosen
                    guard let free = (0..<targetCount).first(where: { i in (weights.map { $0[i] > 0 } ?? true) && !picked.contains(i) }) else { break }
                    chosen.append(free)
                    misses = 0
                }
                continue
            }
            chosen.append(t)
        }
        if chosen.count < degree.lowerBound {
            throw FixtureError(.unsatisfiableRelationship,
                               "\(plan.label): object \(source + 1) needs \(degree.lowerBound) related objects but only \(chosen.count) are left below their maximum")
        }
        guard let max = plan.targetMaximum else { return }
        for t in chosen {
            taken[t] += 1
            if Int(taken[t]) >= max { sampler!.set(0, at: t) }
        }
    }
}
