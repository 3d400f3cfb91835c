// String folding for the [c] and [d] options, and the string operators
// (==, ordering, BEGINSWITH, ENDSWITH, CONTAINS) under folding.
//
// Folding is full Unicode folding through Foundation's
// `folding(options:locale:)`: [c] case-folds ("Straße" → "strasse",
// "İ" → "i̇"), [d] strips diacritics ("Zoë" → "Zoe", "e\u{301}" → "e"), [n]
// turns folding off. Foundation's folding allocates and bridges, so pure-ASCII
// text takes a fast path: ASCII folds to ASCII by lower-casing alone, and the
// prefix / suffix / equality tests run over UTF-8 bytes without allocating.
// The constant side of a comparison is folded once, at compile time.
//
// Text compares by Swift's rules (extended grapheme clusters, canonical
// equivalence), which match NSString's non-literal `compare:`: "e\u{301}"
// does not begin with "e", and equals "é". An empty needle never matches, as
// in Apple (`[@"abc" hasPrefix:@""]` is NO).
import Foundation

/// What the [c] / [d] / [n] options ask of a string comparison. Public so
/// that SQL stores can register functions that fold exactly as memory does.
///
/// ```swift
/// Folding(caseInsensitive: true, diacriticInsensitive: true).fold("MÜLLER")   // "muller"
/// ```
public struct Folding: Sendable, Equatable {
    public var caseInsensitive: Bool
    public var diacriticInsensitive: Bool

    public static let none = Folding(caseInsensitive: false, diacriticInsensitive: false)

    public init(caseInsensitive: Bool, diacriticInsensitive: Bool) {
        self.caseInsensitive = caseInsensitive
        self.diacriticInsensitive = diacriticInsensitive
    }

    /// [n] (already normalized) overrides c and d; [l] changes nothing here.
    public init(_ options: ComparisonOptions) {
        let normalized = options.contains(.normalized)
        caseInsensitive = !normalized && options.contains(.caseInsensitive)
        diacriticInsensitive = !normalized && options.contains(.diacriticInsensitive)
    }

    public var isNone: Bool { !caseInsensitive && !diacriticInsensitive }

    public func fold(_ s: String) -> String {
        if isNone { return s }
        if StringBytes.isASCII(s) { return caseInsensitive ? StringBytes.asciiLowercased(s) : s }
        var options: String.CompareOptions = []
        if caseInsensitive { options.insert(.caseInsensitive) }
        if diacriticInsensitive { options.insert(.diacriticInsensitive) }
        return foldNonASCII(s, options: options)
    }

    public func prepare(_ s: String) -> FoldedString { FoldedString(fold(s)) }
}

/// A string already folded, with its bytes at hand for the ASCII fast paths.
public struct FoldedString: Sendable {
    let text: String
    let utf8: [UInt8]
    let isASCII: Bool
    /// For CONTAINS: the needle prepared for linear search, over bytes when
    /// ASCII and over Characters otherwise (LinearSearch.swift).
    let byteNeedle: LinearNeedle<UInt8>
    let characterNeedle: LinearNeedle<Character>

    public init(_ folded: String) {
        text = folded
        utf8 = Array(folded.utf8)
        isASCII = utf8.allSatisfy { $0 < 0x80 }
        byteNeedle = LinearNeedle(isASCII ? utf8 : [])
        characterNeedle = LinearNeedle(Array(folded))
    }
}

/// ASCII byte helpers shared by the evaluator and the SQLite functions
/// (which decide ASCII text on SQLite's bytes with these same loops).
public enum StringBytes {
    public static func isASCII(_ s: String) -> Bool {
        if let r = s.utf8.withContiguousStorageIfAvailable({ isASCII($0) }) { return r }
        return s.utf8.allSatisfy { $0 < 0x80 }
    }

    public static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0
        let n = bytes.count
        guard let base = bytes.baseAddress else { return true }
        while i + 8 <= n {
            if UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 != 0 { return false }
            i += 8
        }
        while i < n { if base[i] >= 0x80 { return false }; i += 1 }
        return true
    }

    @inline(__always) public static func lower(_ b: UInt8) -> UInt8 { (b &- 0x41) < 26 ? b | 0x20 : b }

    public static func asciiLowercased(_ s: String) -> String {
        var bytes = Array(s.utf8)
        for i in bytes.indices { bytes[i] = lower(bytes[i]) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Runs `body` over the string's UTF-8 without copying when possible.
    @inline(__always)
    static func withBytes<R>(_ s: String, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        if let r = s.utf8.withContiguousStorageIfAvailable(body) { return r }
        let copy = Array(s.utf8)
        return copy.withUnsafeBufferPointer(body)
    }
}

/// The string operators under a folding, with a folded needle.
public struct StringMatcher: Sendable {
    public let folding: Folding

    public init(folding: Folding) { self.folding = folding }

    // MARK: Equality and order

    public func equal(_ s: String, _ needle: FoldedString) -> Bool {
        if folding.isNone { return s == needle.text }
        if needle.isASCII, let r = asciiEqual(s, needle) { return r }
        return folding.fold(s) == needle.text
    }

    func equal(_ a: String, _ b: String) -> Bool {
        folding.isNone ? a == b : folding.fold(a) == folding.fold(b)
    }

    func order(_ a: String, _ b: String) -> Order {
        folding.isNone ? Order(a, b) : Order(folding.fold(a), folding.fold(b))
    }

    /// nil: the bytes alone cannot decide (non-ASCII subject).
    private func asciiEqual(_ s: String, _ needle: FoldedString) -> Bool? {
        let lower = folding.caseInsensitive
        return StringBytes.withBytes(s) { (b: UnsafeBufferPointer<UInt8>) -> Bool? in
            guard StringBytes.isASCII(b) else { return nil }
            guard b.count == needle.utf8.count else { return false }
            for i in 0..<b.count {
                let c = lower ? StringBytes.lower(b[i]) : b[i]
                if c != needle.utf8[i] { return false }
            }
            return true
        }
    }

    // MARK: BEGINSWITH / ENDSWITH / CONTAINS

    @inline(__always)   // into the specialised closures: their hot path
    public func beginsWith(_ s: String, _ needle: FoldedString) -> Bool {
        if needle.utf8.isEmpty { return false }
        if needle.isASCII, let r = asciiPrefix(s, needle) { return r }
        if needle.isASCII, !folding.isNone,
           let r = folding.table.hasFoldedPrefix(s, asciiNeedle: needle.utf8, lowercases: folding.caseInsensitive,
                                                 dropsDiacritics: folding.diacriticInsensitive) {
            return r
        }
        return folding.fold(s).hasPrefix(needle.text)
    }

    public func endsWith(_ s: String, _ needle: FoldedString) -> Bool {
        if needle.utf8.isEmpty { return false }
        if needle.isASCII, let r = asciiSuffix(s, needle) { return r }
        return folding.fold(s).hasSuffix(needle.text)
    }

    public func contains(_ s: String, _ needle: FoldedString) -> Bool {
        if needle.utf8.isEmpty { return false }
        if needle.isASCII, let r = asciiContains(s, needle) { return r }
        let haystack = Array(folding.fold(s))
        return needle.characterNeedle.occurs(count: haystack.count) { haystack[$0] }
    }

    private func asciiPrefix(_ s: String, _ needle: FoldedString) -> Bool? {
        // Straight through `withContiguousStorageIfAvailable` (a small string
        // is copied to the stack, a native one is read in place): measured
        // cheaper than `withBytes`'s extra closure layer or a UTF-8 iterator.
        let lower = folding.caseInsensitive
        if let r = s.utf8.withContiguousStorageIfAvailable({ (b: UnsafeBufferPointer<UInt8>) -> Bool? in
            StringMatcher.asciiPrefix(b, needle.utf8, lower)
        }) { return r }
        return Array(s.utf8).withUnsafeBufferPointer { StringMatcher.asciiPrefix($0, needle.utf8, lower) }
    }

    @inline(__always)
    private static func asciiPrefix(_ b: UnsafeBufferPointer<UInt8>, _ needle: [UInt8], _ lower: Bool) -> Bool? {
        let n = needle.count
        if b.count < n {
            // Too short, unless folding could lengthen it (ß → ss).
            return StringBytes.isASCII(b) ? false : nil
        }
        for i in 0..<n {
            let c = b[i]
            if c >= 0x80 { return nil }
            if (lower ? StringBytes.lower(c) : c) != needle[i] { return false }
        }
        // A combining mark after the prefix would join its last character.
        if b.count > n && b[n] >= 0x80 { return nil }
        return true
    }

    private func asciiSuffix(_ s: String, _ needle: FoldedString) -> Bool? {
        let lower = folding.caseInsensitive
        return StringBytes.withBytes(s) { (b: UnsafeBufferPointer<UInt8>) -> Bool? in
            let n = needle.utf8.count
            if b.count < n { return StringBytes.isASCII(b) ? false : nil }
            let start = b.count - n
            // Non-ASCII text in the tail could fold to a different length.
            for i in start..<b.count where b[i] >= 0x80 { return nil }
            for i in 0..<n where (lower ? StringBytes.lower(b[start + i]) : b[start + i]) != needle.utf8[i] {
                return false
            }
            return true
        }
    }

    private func asciiContains(_ s: String, _ needle: FoldedString) -> Bool? {
        let lower = folding.caseInsensitive
        return StringBytes.withBytes(s) { (b: UnsafeBufferPointer<UInt8>) -> Bool? in
            guard StringBytes.isASCII(b) else { return nil }
            return needle.byteNeedle.occurs(in: b, lower: lower)
        }
    }
}
