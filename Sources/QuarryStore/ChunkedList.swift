// An append-mostly list kept in fixed-size chunks, for the undo stack. A
// save of 500k single edits records 500k steps of ~90 bytes: one array
// would double, and move everything it holds, about twenty times on the
// way (and touch twice the memory it ends with); chunks never move what
// they hold. Only the tail is ever removed (undo takes the last group).

struct ChunkedList<Element> {
    private static var chunkSize: Int { 4096 }
    private var chunks: [[Element]] = []
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    mutating func append(_ element: consuming Element) {
        // Every chunk but the last is full: a new one is due when all are.
        if count == chunks.count * Self.chunkSize {
            var chunk: [Element] = []
            chunk.reserveCapacity(Self.chunkSize)
            chunks.append(chunk)
        }
        chunks[chunks.count - 1].append(element)
        count += 1
    }

    mutating func append(contentsOf elements: some Sequence<Element>) {
        for element in elements { append(element) }
    }

    subscript(i: Int) -> Element {
        get { chunks[i / Self.chunkSize][i % Self.chunkSize] }
        set { chunks[i / Self.chunkSize][i % Self.chunkSize] = newValue }
    }

    /// Drops the elements from `start` on.
    mutating func truncate(to start: Int) {
        precondition(start >= 0 && start <= count, "truncating a list of \(count) to \(start)")
        while count > start {
            let last = chunks.count - 1
            let drop = min(chunks[last].count, count - start)
            chunks[last].removeLast(drop)
            count -= drop
            if chunks[last].isEmpty { chunks.removeLast() }
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
        chunks = []
        count = 0
    }

    mutating func mapInPlace(_ transform: (Element) -> Element) {
        for c in chunks.indices {
            for i in chunks[c].indices { chunks[c][i] = transform(chunks[c][i]) }
        }
    }
}
