// Drawing an index in proportion to integer weights that change as we go: a
// Fenwick (binary indexed) tree, O(log n) to draw and to update, O(n) memory.
// It carries two jobs of relationship wiring: handing out children to
// parents by weight until a parent is full (its weight then drops to 0),
// and drawing without replacement from per-parent counts (each draw takes
// one unit away), which streams children in a random order while every
// parent ends with exactly its planned count.
//
// Weights are integers so that draws are identical on every machine.
struct WeightedSampler {
    private var tree: [UInt64]
    private(set) var weights: [UInt64]
    private(set) var total: UInt64 = 0

    init(weights: [UInt64]) {
        self.weights = weights
        tree = [UInt64](repeating: 0, count: weights.count + 1)
        // Linear-time construction.
        for i in 0..<weights.count {
            let node = i + 1
            tree[node] &+= weights[i]
            let parent = node + (node & -node)
            if parent <= weights.count { tree[parent] &+= tree[node] }
            total &+= weights[i]
        }
    }

    var count: Int { weights.count }

    /// Adds `delta` (may be negative) to the weight of `index`.
    mutating func add(_ delta: Int64, at index: Int) {
        let d = UInt64(bitPattern: delta)
        weights[index] &+= d
        total &+= d
        var node = index + 1
        while node < tree.count {
            tree[node] &+= d
            node += node & -node
        }
    }

    mutating func set(_ weight: UInt64, at index: Int) {
        add(Int64(bitPattern: weight &- weights[index]), at: index)
    }

    /// The index whose cumulative weight interval holds `target` (< total).
    func find(_ target: UInt64) -> Int {
        var position = 0
        var remaining = target
        var step = 1
        while step * 2 < tree.count { step *= 2 }
        while step > 0 {
            let next = position + step
            if next < tree.count, tree[next] <= remaining {
                position = next
                remaining -= tree[next]
            }
            step /= 2
        }
        return position
    }

    /// An index drawn in proportion to the weights; nil when all are 0.
    func draw(_ random: inout FixtureRandom) -> Int? {
        guard total > 0 else { return nil }
        return find(random.below(total))
    }

    /// Draws an index and takes one unit of its weight away.
    mutating func take(_ random: inout FixtureRandom) -> Int? {
        guard let i = draw(&random) else { return nil }
        add(-1, at: i)
        return i
    }
}
