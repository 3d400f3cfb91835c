// Assembling SQL text cheaply. Planning a fetch writes a few dozen pieces of
// text; with `+`, interpolation and `joined` each piece cost a String append
// (a few hundred instructions) and often an allocation, which made planning
// slower than SQLite's own parse of the result (PERFORMANCE.md, scenario 2).
// Here pieces are copied as bytes into one buffer, and `concat` sizes its
// result first so that it allocates once (not at all for ≤ 15 bytes, which
// Swift keeps inline).
import QuarryModel

/// SQL text and its bound arguments, built by appending.
struct SQLText {
    private var bytes: [UInt8] = []
    private(set) var arguments: [Value] = []

    init(capacity: Int) { bytes.reserveCapacity(capacity) }

    var isEmpty: Bool { bytes.isEmpty }
    /// Bytes written so far: a position to cut at later (`string(_:after:)`).
    var count: Int { bytes.count }

    mutating func append(_ s: String) {
        var s = s
        s.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// Literals: read in place, no reference counting.
    mutating func append(_ s: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount))
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

    var string: String {
        bytes.withUnsafeBufferPointer { source in
            String(unsafeUninitializedCapacity: source.count) { target in
                _ = target.initialize(from: source)
                return source.count
            }
        }
    }

    var fragment: SQLFragment { SQLFragment(string, arguments) }

    /// `prefix` followed by the bytes in `range` of what was written.
    func string(_ range: Range<Int>, after prefix: StaticString) -> String {
        let head = UnsafeBufferPointer(start: prefix.utf8Start, count: prefix.utf8CodeUnitCount)
        return bytes.withUnsafeBufferPointer { source in
            String(unsafeUninitializedCapacity: head.count + range.count) { target in
                _ = target.initialize(from: head)
                _ = UnsafeMutableBufferPointer(rebasing: target[head.count...]).initialize(from: UnsafeBufferPointer(rebasing: source[range]))
                return head.count + range.count
            }
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
