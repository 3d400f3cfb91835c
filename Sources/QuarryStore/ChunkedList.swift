// An append-mostly list kept in fixed-size chunks, for the undo stack. A
// save of 500k single edits records 500k steps of ~90 bytes: one array
// would double, and move everything it holds, about twenty times on the
// way (and touch twice the memory it ends with); chunks never move what
// they hold. Only the tail is ever removed (undo takes the last group).

struct ChunkedList<Element> {
    private static var chunkSize: Int { 4096 }
    /// Full chunks, `chunkSize` elements each.
    private var full: [[Element]] = []
    /// The chunk being filled, apart from the full ones: an append is then
    /// one array append, not a lookup of the last chunk inside the list of
    /// chunks (two uniqueness checks) per element.
    private var tail: [Element] = []
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    mutating func append(_ element: consuming Element) {
        if tail.count == Self.chunkSize {
            full.append(tail)
            tail = []
        }
        if tail.capacity == 0 { tail.reserveCapacity(Self.chunkSize) }
        tail.append(element)
        count += 1
    }

    mutating func append(contentsOf elements: some Sequence<Element>) {
        for element in elements { append(element) }
    }

    subscript(i: Int) -> Element {
        get {
            let c = i / Self.chunkSize
            return c < full.count ? full[c][i % Self.chunkSize] : tail[i % Self.chunkSize]
        }
        set {
            let c = i / Self.chunkSize
            if c < full.count { full[c][i % Self.chunkSize] = newValue } else { tail[i % Self.chunkSize] = newValue }
        }
    }

    /// Drops the elements from `start` on.
    mutating func truncate(to start: Int) {
        precondition(start >= 0 && start <= count, "truncating a list of \(count) to \(start)")
        while count > start {
            if tail.isEmpty { tail = full.removeLast() }
            let drop = min(tail.count, count - start)
            tail.removeLast(drop)
            count -= drop
        }
    }

    /// Removes the elements from `start` on and returns them, in order.
    mutating func removeSuffix(from start: Int) -> [Element] {
        precondition(start >= 0 && start <= count, "removing from \(start) in a list of \(count)")
        var removed: [Element] = []
        removed.reserveCapacity(count - start)
        for i in start..<count { removed.append(self[i]) }
        truncate(to: start)
        return removed
    }

    mutating func removeAll() {
        full = []
        tail = []
        count = 0
    }

    mutating func mapInPlace(_ transform: (Element) -> Element) {
        for c in full.indices {
            for i in full[c].indices { full[c][i] = transform(full[c][i]) }
        }
        for i in tail.indices { tail[i] = transform(tail[i]) }
    }
}
