// Wiring to-one relationships while rows stream: each row of the side that
// holds the foreign key asks for its target's primary key, in row order.
// Three cases, by the inverse:
//
// - many-to-one (inverse to-many, Employee.department ↔ employees): every
//   parent first gets its number of children — its minimum, then the rest
//   handed out by weight (uniform, bell-shaped or Zipf-skewed) until each
//   parent is at its maximum — then children draw from those counts without
//   replacement. Children come out in random order, yet each parent ends
//   with exactly its planned count, so the inverse's min/max always hold.
//   O(parents) memory, O(log parents) per row.
// - one-to-one (inverse to-one): both sides shuffled by affine permutations
//   (O(1) memory) and paired position by position.
// - no inverse: an independent weighted draw per row.
//
// Keys: rows of an entity get primary keys firstKey ..< firstKey + count
// in their table; a relationship to an entity with sub-entities reaches
// several such segments (`KeySpace`).

/// The primary keys of the objects a relationship can reach, in order.
struct KeySpace {
    var segments: [(first: Int64, count: Int)] = []
    var count: Int { segments.reduce(0) { $0 + $1.count } }

    func key(_ index: Int) -> Int64 {
        var i = index
        for s in segments {
            if i < s.count { return s.first + Int64(i) }
            i -= s.count
        }
        preconditionFailure("key index out of range")
    }
}

/// A source of target keys for one to-one relationship, shared by every
/// entity that has it (an entity and its sub-entities).
protocol ToOneWiring: AnyObject {
    /// The next row's target key, or nil for no object.
    func next() -> Int64?
}

/// Integer weights of `count` parents for a distribution shape.
func shapeWeights(_ count: Int, _ shape: DistributionShape, skew: Double, _ r: inout FixtureRandom) -> [UInt64] {
    switch shape {
    case .uniform:
        return [UInt64](repeating: 1, count: count)
    case .normal:
        return (0..<count).map { _ in UInt64(max(1, (1_000 * (1 + 0.5 * r.bell())).rounded())) }
    case .zipf:
        // Ranks shuffled, so the biggest parent is not always the first;
        // weights rounded to integers, so `pow`'s last bit never matters.
        var ranks = Array(1...max(count, 1))
        r.shuffle(&ranks)
        return ranks.prefix(count).map { UInt64(max(1, (1e9 / pow(Double($0), skew)).rounded())) }
    }
}

final class ParentAssignment: ToOneWiring {
    private var sampler: WeightedSampler
    private var random: FixtureRandom
    private let parents: KeySpace

    /// `counts`: children per parent, planned; the last bucket is "no parent".
    init(parents: KeySpace, counts: [Int], nulls: Int, random: FixtureRandom) {
        self.parents = parents
        self.random = random
        sampler = WeightedSampler(weights: counts.map { UInt64($0) } + [UInt64(nulls)])
    }

    func next() -> Int64? {
        guard let i = sampler.take(&random), i < parents.count else { return nil }
        return parents.key(i)
    }

    /// Children per parent: each parent's `minimum`, then `total - P·minimum`
    /// more handed out by `weights`, never past `maximum`. Callers have
    /// checked that the total fits.
    static func plan(total: Int, weights: [UInt64], minimum: Int, maximum: Int?, random: inout FixtureRandom) -> [Int] {
        var counts = [Int](repeating: minimum, count: weights.count)
        var remaining = total - minimum * weights.count
        guard remaining > 0, !weights.isEmpty else { return counts }
        var sampler = WeightedSampler(weights: weights)
        let room = maximum.map { $0 - minimum }
        if room == 0 { return counts }
        // Whole rounds first when the total is large: the expected share of
        // each parent, exactly, then sampling only for the remainder. Keeps
        // planning O(parents · log) rather than O(children · log).
        if room == nil, remaining > 4 * weights.count {
            let total = sampler.total
            var given = 0
            for (i, w) in weights.enumerated() {
                let share = Int(total.dividingFullWidth(UInt64(remaining).multipliedFullWidth(by: w)).quotient)
                counts[i] += share
                given += share
            }
            remaining -= given
        }
        while remaining > 0, let i = sampler.draw(&random) {
            counts[i] += 1
            remaining -= 1
            if let room, counts[i] - minimum >= room { sampler.set(0, at: i) }
        }
        return counts
    }
}

final class OneToOnePairing: ToOneWiring {
    private let owners: AffinePermutation
    private let targets: AffinePermutation
    private let keys: KeySpace
    private let pairs: Int
    private var row = 0

    init(ownerCount: Int, targets keys: KeySpace, pairs: Int, random: inout FixtureRandom) {
        owners = AffinePermutation(count: ownerCount, random: &random)
        targets = AffinePermutation(count: keys.count, random: &random)
        self.keys = keys
        self.pairs = pairs
    }

    func next() -> Int64? {
        defer { row += 1 }
        let position = owners(row)
        return position < pairs ? keys.key(targets(position)) : nil
    }
}

final class IndependentPick: ToOneWiring {
    private let sampler: WeightedSampler
    private var random: FixtureRandom
    private let keys: KeySpace
    private let nullRatio: Double

    init(targets: KeySpace, weights: [UInt64], nullRatio: Double, random: FixtureRandom) {
        keys = targets
        sampler = WeightedSampler(weights: weights)
        self.nullRatio = nullRatio
        self.random = random
    }

    func next() -> Int64? {
        if random.chance(nullRatio) { return nil }
        return sampler.draw(&random).map(keys.key)
    }
}

import Foundation
