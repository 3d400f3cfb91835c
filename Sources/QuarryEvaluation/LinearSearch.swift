// Substring search in time linear in the haystack, whatever the needle.
//
// The obvious loop (try the needle at each position) costs n·m when the
// text keeps almost matching: a 1 kB needle over a run of one letter did a
// million comparisons per position. Long needles are searched with
// Knuth–Morris–Pratt instead: the needle's failure table, built once when
// the constant side is compiled, lets the search move on without ever
// re-reading the haystack, so at most 2n comparisons. Short needles keep the
// simple loop (m ≤ shortNeedle: at most shortNeedle·n, and faster in
// practice). Used over ASCII bytes (lower-cased on the fly under [c]) by the
// evaluator and by Quarry's SQLite functions, and over Characters for other
// text.

/// A needle prepared for linear-time search.
public struct LinearNeedle<Element: Equatable & Sendable>: Sendable {
    public let elements: [Element]
    /// failure[i]: the length of the longest proper border of elements[0...i].
    let failure: [Int]

    /// Needles up to this long are searched with the simple loop.
    public static var shortNeedle: Int { 8 }

    public init(_ elements: [Element]) {
        self.elements = elements
        var failure = [Int](repeating: 0, count: elements.count)
        if elements.count > LinearNeedle.shortNeedle {
            var k = 0
            for i in 1..<elements.count {
                while k > 0 && elements[i] != elements[k] { k = failure[k - 1] }
                if elements[i] == elements[k] { k += 1 }
                failure[i] = k
            }
        }
        self.failure = failure
    }

    /// Whether the needle occurs in the `count` elements `element(i)` gives.
    @inline(__always)
    public func occurs(count n: Int, _ element: (Int) -> Element) -> Bool {
        let m = elements.count
        if m == 0 { return true }
        if n < m { return false }
        if m <= LinearNeedle.shortNeedle {
            let first = elements[0]
            var i = 0
            while i + m <= n {
                if element(i) == first {
                    var j = 1
                    while j < m && element(i + j) == elements[j] { j += 1 }
                    if j == m { return true }
                }
                i += 1
            }
            return false
        }
        var k = 0
        for i in 0..<n {
            let c = element(i)
            while k > 0 && c != elements[k] { k = failure[k - 1] }
            if c == elements[k] {
                k += 1
                if k == m { return true }
            }
        }
        return false
    }
}

extension LinearNeedle where Element == UInt8 {
    /// Whether the needle (already lower-cased when `lower`) occurs in ASCII
    /// bytes, each lower-cased first when `lower`.
    @inline(__always)
    public func occurs(in b: UnsafeBufferPointer<UInt8>, lower: Bool) -> Bool {
        lower ? occurs(count: b.count) { StringBytes.lower(b[$0]) } : occurs(count: b.count) { b[$0] }
    }
}
