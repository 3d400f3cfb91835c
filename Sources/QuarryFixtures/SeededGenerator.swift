// Quarry's own seeded random numbers. Swift's SystemRandomNumberGenerator
// cannot be seeded, and the standard library's `Int.random(in:using:)` may
// change its algorithm between releases, so everything that decides a
// fixture value goes through this file: SplitMix64 to derive seeds, a
// PCG-XSH-RR-64/32 pair (as a 64-bit generator) for the streams, and range,
// unit-interval and bell-curve draws written here with integer arithmetic
// only. No `log`, `sin` or `pow` decides a value: platform maths libraries
// may differ in the last bit, and byte-identical output on any machine is
// the promise.
//
// Seeds are derived by name: each entity, attribute and relationship has
// its own stream, `derive(seed, "Employee.salary")`, so adding an entity (or
// an attribute) never reshuffles the values of the others.

/// SplitMix64: the seeding function recommended for PCG and xoshiro.
public struct SplitMix64: Sendable {
    public var state: UInt64
    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A seed for a named stream: FNV-1a of the name's UTF-8 mixed with the
    /// parent seed. Stable across runs, machines and Swift versions (unlike
    /// `Hasher`, which is randomly seeded per process).
    public static func derive(_ seed: UInt64, _ name: String) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in name.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        var mix = SplitMix64(seed: seed ^ hash)
        _ = mix.next()
        return mix.next()
    }
}

/// The fixture generator's random stream: two PCG32 generators (different
/// increments) giving 64 bits per call.
///
/// ```swift
/// var rng = FixtureRandom(seed: 42)
/// let age = rng.int(in: 18...67)
/// ```
public struct FixtureRandom: RandomNumberGenerator, Sendable {
    private var high: UInt64
    private var low: UInt64
    private static let multiplier: UInt64 = 6_364_136_223_846_793_005

    public init(seed: UInt64) {
        var mix = SplitMix64(seed: seed)
        high = mix.next()
        low = mix.next()
    }

    /// A stream for `name` under `seed` (see ``SplitMix64/derive(_:_:)``).
    public init(seed: UInt64, name: String) {
        self.init(seed: SplitMix64.derive(seed, name))
    }

    @inline(__always)
    private static func step(_ state: inout UInt64, _ increment: UInt64) -> UInt32 {
        let old = state
        state = old &* multiplier &+ increment
        let xorshifted = UInt32(truncatingIfNeeded: ((old >> 18) ^ old) >> 27)
        let rot = UInt32(truncatingIfNeeded: old >> 59)
        return (xorshifted >> rot) | (xorshifted << ((~rot &+ 1) & 31))
    }

    @inline(__always)
    public mutating func next() -> UInt64 {
        let a = Self.step(&high, 1_442_695_040_888_963_407)
        let b = Self.step(&low, 0x5851_F42D_4C95_7F2D | 1)
        return UInt64(a) << 32 | UInt64(b)
    }

    /// Uniform in `0..<bound` without modulo bias (Lemire's method).
    @inline(__always)
    public mutating func below(_ bound: UInt64) -> UInt64 {
        precondition(bound > 0)
        var m = next().multipliedFullWidth(by: bound)
        if m.low < bound {
            let threshold = (0 &- bound) % bound
            while m.low < threshold { m = next().multipliedFullWidth(by: bound) }
        }
        return m.high
    }

    /// Uniform in `0..<bound`.
    @inline(__always)
    public mutating func index(_ bound: Int) -> Int { Int(below(UInt64(bound))) }

    /// Uniform in a closed range of integers (any width, Int64.min...Int64.max included).
    public mutating func int(in range: ClosedRange<Int64>) -> Int64 {
        let width = UInt64(bitPattern: range.upperBound &- range.lowerBound)
        if width == UInt64.max { return Int64(bitPattern: next()) }
        return range.lowerBound &+ Int64(bitPattern: below(width + 1))
    }

    /// Uniform in [0, 1) with 53 random bits: exact, no rounding surprises.
    @inline(__always)
    public mutating func unit() -> Double { Double(next() >> 11) * 0x1p-53 }

    /// True with probability `p`.
    @inline(__always)
    public mutating func chance(_ p: Double) -> Bool { p > 0 && (p >= 1 || unit() < p) }

    /// A standard normal deviate by the Irwin–Hall sum of twelve uniforms:
    /// mean 0, deviation 1, tails cut at ±6. Additions only, so every
    /// machine gets the same bits (Box–Muller would need `log` and `cos`).
    public mutating func bell() -> Double {
        var sum = 0.0
        for _ in 0..<12 { sum += unit() }
        return sum - 6
    }

    /// Fisher–Yates shuffle of `array` with this stream.
    public mutating func shuffle<T>(_ array: inout [T]) {
        guard array.count > 1 else { return }
        for i in stride(from: array.count - 1, to: 0, by: -1) {
            array.swapAt(i, index(i + 1))
        }
    }
}

/// A bijection of `0..<count` (i ↦ (a·i + b) mod count with gcd(a, count) = 1):
/// a shuffled order in O(1) memory, for pairing one-to-one relationships.
struct AffinePermutation: Sendable {
    let count: UInt64
    let a: UInt64
    let b: UInt64

    init(count: Int, random: inout FixtureRandom) {
        self.count = UInt64(max(count, 1))
        var a = self.count > 2 ? random.below(self.count - 1) + 1 : 1
        while Self.gcd(a, self.count) != 1 { a = a % self.count + 1 }
        self.a = a
        b = random.below(self.count)
    }

    func callAsFunction(_ i: Int) -> Int {
        let product = a.multipliedFullWidth(by: UInt64(i))
        let r = count.dividingFullWidth((product.high % count, product.low)).remainder
        return Int((r + b) % count)
    }

    static func gcd(_ x: UInt64, _ y: UInt64) -> UInt64 { y == 0 ? x : gcd(y, x % y) }
}
