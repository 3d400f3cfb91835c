// Assembling SQL text cheaply. Planning a fetch writes a few dozen pieces of
// text; with `+`, interpolation and `joined` each piece cost a String append
// (a few hundred instructions) and often an allocation, which made planning
// slower than SQLite's own parse of the result (PERFORMANCE.md, scenario 2).
// Here pieces are copied as bytes into one buffer, and `concat` sizes its
// result first so that it allocates once (not at all for ≤ 15 bytes, which
// Swift keeps inline).
import QuarryModel

/// SQL text and its bound arguments, built by appending. Noncopyable: it
/// owns a plain byte buffer (no object header, no reference count, no
/// copy-on-write check per append) that it frees when it goes away.
struct SQLText: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// Bytes written so far: a position to cut at later (`string(_:after:)`).
    private(set) var count = 0
    private(set) var arguments: [Value] = []

    init(capacity: Int) {
        self.capacity = Swift.max(capacity, 16)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    mutating func append(_ s: String) {
        var s = s
        s.withUTF8 { write($0) }
    }

    /// Literals: read in place, no reference counting. (A literal passed to
    /// `append` would be a String: Swift prefers String for literals.)
    mutating func appendLiteral(_ s: StaticString) {
        write(UnsafeBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount))
    }

    mutating func append(_ f: SQLFragment) {
        append(f.sql)
        appendArguments(f.arguments)
    }

    /// Appends values for placeholders already written; the first non-empty
    /// list is shared, not copied.
    mutating func appendArguments(_ values: [Value]) {
        if arguments.isEmpty { arguments = values } else { arguments.append(contentsOf: values) }
    }

    private mutating func write(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let from = bytes.baseAddress, bytes.count > 0 else { return }
        if count + bytes.count > capacity { grow(to: count + bytes.count) }
        (base + count).update(from: from, count: bytes.count)
        count += bytes.count
    }

    private mutating func grow(to needed: Int) {
        let larger = Swift.max(needed, capacity * 2)
        let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: larger)
        moved.update(from: base, count: count)
        base.deallocate()
        base = moved
        capacity = larger
    }

    var string: String { string(0..<count, after: "") }

    var fragment: SQLFragment { SQLFragment(string, arguments) }

    /// `prefix` followed by the bytes in `range` of what was written.
    func string(_ range: Range<Int>, after prefix: StaticString) -> String {
        let head = prefix.utf8CodeUnitCount
        return String(unsafeUninitializedCapacity: head + range.count) { target in
            guard let to = target.baseAddress else { return 0 }
            if head > 0 { to.update(from: prefix.utf8Start, count: head) }
            (to + head).update(from: base + range.lowerBound, count: range.count)
            return head + range.count
        }
    }

    /// The pieces as one string, allocated once at its final size.
    static func concat(_ pieces: String...) -> String {
        var total = 0
        for p in pieces { total += p.utf8.count }
        return String(unsafeUninitializedCapacity: total) { target in
            var at = 0
            for var p in pieces {
                p.withUTF8 { source in
                    guard let from = source.baseAddress, source.count > 0 else { return }
                    (target.baseAddress! + at).update(from: from, count: source.count)
                    at += source.count
                }
            }
            return at
        }
    }
}
