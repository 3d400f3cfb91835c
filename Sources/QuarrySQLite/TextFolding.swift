// Folding for the [c] / [d] options inside SQLite, and the string tests that
// use it (BEGINSWITH, ENDSWITH, CONTAINS), mirroring the in-memory evaluator
// (QuarryEvaluation's `Folding` and `StringMatcher`) so that a predicate
// gives the same rows in SQL and in memory.
//
// The evaluator's types are internal to its module, so this is a second
// implementation of the same rules, kept honest by differential tests that
// run every case through both (Tests/QuarrySQLiteTests/FunctionTests.swift):
//   - ASCII text folds by lower-casing alone under [c] and is unchanged
//     otherwise (Foundation would give the same; the fast path avoids it);
//   - other text goes through Foundation's `folding(options:locale: nil)`
//     ("Straße" → "strasse", "İ" → "i̇", "Zoë" → "zoe" under [cd]);
//   - the string tests mirror the evaluator's decisions exactly, including
//     where it decides over bytes (an ASCII needle against ASCII text) and
//     where it falls back to Swift's Character semantics ("e\u{301}" does not
//     begin with "e"); an empty needle never matches, as in Apple.
// Raw SQLite argument bytes are examined before any String is built, so the
// common ASCII row costs no allocation.
import Foundation

/// The folding asked for by a `flags` argument: 1 = [c], 2 = [d].
struct TextFolding: Sendable, Equatable {
    let caseInsensitive: Bool
    let diacriticInsensitive: Bool

    init(flags: Int32) {
        caseInsensitive = flags & 1 != 0
        diacriticInsensitive = flags & 2 != 0
    }

    var isNone: Bool { !caseInsensitive && !diacriticInsensitive }

    /// Exactly the evaluator's `Folding.fold`.
    func fold(_ s: String) -> String {
        if isNone { return s }
        if Bytes.isASCII(s) { return caseInsensitive ? Bytes.asciiLowercased(s) : s }
        var options: String.CompareOptions = []
        if caseInsensitive { options.insert(.caseInsensitive) }
        if diacriticInsensitive { options.insert(.diacriticInsensitive) }
        return s.folding(options: options, locale: nil)
    }

    /// What `quarry_fold` returns: `fold(s)` in Unicode NFC.
    ///
    /// Why NFC: the evaluator compares folded strings with Swift's `==` and
    /// `<`, which honour canonical equivalence ("e\u{301}" == "é") and order
    /// by the scalars of the NFC form. SQLite compares text by bytes. Putting
    /// the folded text in NFC makes SQLite's byte comparison of two folded
    /// values agree with Swift's comparison of the same two values. The result
    /// is always `==` (as a Swift String) to `Folding.fold`.
    func foldForComparison(_ s: String) -> String {
        if Bytes.isASCII(s) { return caseInsensitive ? Bytes.asciiLowercased(s) : s }
        return fold(s).precomposedStringWithCanonicalMapping
    }
}

/// A needle folded once per statement (cached through `sqlite3_set_auxdata`).
final class FoldedNeedle {
    /// The unfolded needle's bytes and the flags, to check a cached entry.
    let key: [UInt8]
    let flags: Int32
    let folding: TextFolding
    let text: String
    let utf8: [UInt8]
    let isASCII: Bool

    init(raw: UnsafeBufferPointer<UInt8>, flags: Int32) {
        key = Array(raw)
        self.flags = flags
        folding = TextFolding(flags: flags)
        text = folding.fold(String(decoding: raw, as: UTF8.self))
        utf8 = Array(text.utf8)
        isASCII = utf8.allSatisfy { $0 < 0x80 }
    }

    func isFor(_ raw: UnsafeBufferPointer<UInt8>, flags: Int32) -> Bool {
        flags == self.flags && raw.elementsEqual(key)
    }

    // MARK: BEGINSWITH / ENDSWITH / CONTAINS

    func isPrefix(of s: UnsafeBufferPointer<UInt8>) -> Bool {
        if utf8.isEmpty { return false }
        if isASCII, let r = asciiPrefix(s) { return r }
        return subject(s).hasPrefix(text)
    }

    func isSuffix(of s: UnsafeBufferPointer<UInt8>) -> Bool {
        if utf8.isEmpty { return false }
        if isASCII, let r = asciiSuffix(s) { return r }
        return subject(s).hasSuffix(text)
    }

    func isContained(in s: UnsafeBufferPointer<UInt8>) -> Bool {
        if utf8.isEmpty { return false }
        if isASCII, let r = asciiContains(s) { return r }
        return subject(s).firstRange(of: text) != nil
    }

    private func subject(_ s: UnsafeBufferPointer<UInt8>) -> String {
        folding.fold(String(decoding: s, as: UTF8.self))
    }

    /// nil: the bytes alone cannot decide (the evaluator then folds too).
    private func asciiPrefix(_ b: UnsafeBufferPointer<UInt8>) -> Bool? {
        let lower = folding.caseInsensitive
        let n = utf8.count
        // Too short, unless folding could lengthen it (ß → ss).
        if b.count < n { return Bytes.isASCII(b) ? false : nil }
        for i in 0..<n {
            let c = b[i]
            if c >= 0x80 { return nil }
            if (lower ? Bytes.lower(c) : c) != utf8[i] { return false }
        }
        // A combining mark after the prefix would join its last character.
        if b.count > n && b[n] >= 0x80 { return nil }
        return true
    }

    private func asciiSuffix(_ b: UnsafeBufferPointer<UInt8>) -> Bool? {
        let lower = folding.caseInsensitive
        let n = utf8.count
        if b.count < n { return Bytes.isASCII(b) ? false : nil }
        let start = b.count - n
        // Non-ASCII text in the tail could fold to a different length.
        for i in start..<b.count where b[i] >= 0x80 { return nil }
        for i in 0..<n where (lower ? Bytes.lower(b[start + i]) : b[start + i]) != utf8[i] { return false }
        return true
    }

    private func asciiContains(_ b: UnsafeBufferPointer<UInt8>) -> Bool? {
        guard Bytes.isASCII(b) else { return nil }
        let lower = folding.caseInsensitive
        let n = utf8.count
        if b.count < n { return false }
        let first = utf8[0]
        var i = 0
        while i + n <= b.count {
            if (lower ? Bytes.lower(b[i]) : b[i]) == first {
                var j = 1
                while j < n, (lower ? Bytes.lower(b[i + j]) : b[i + j]) == utf8[j] { j += 1 }
                if j == n { return true }
            }
            i += 1
        }
        return false
    }
}

/// Byte-level helpers for the ASCII fast paths.
enum Bytes {
    static func isASCII(_ s: String) -> Bool {
        if let r = s.utf8.withContiguousStorageIfAvailable({ isASCII($0) }) { return r }
        return s.utf8.allSatisfy { $0 < 0x80 }
    }

    /// Eight bytes at a time: text columns are mostly ASCII.
    static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let n = bytes.count
        var i = 0
        while i + 8 <= n {
            if UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 != 0 { return false }
            i += 8
        }
        while i < n { if base[i] >= 0x80 { return false }; i += 1 }
        return true
    }

    @inline(__always) static func lower(_ b: UInt8) -> UInt8 { (b &- 0x41) < 26 ? b | 0x20 : b }

    static func asciiLowercased(_ s: String) -> String {
        var bytes = Array(s.utf8)
        for i in bytes.indices { bytes[i] = lower(bytes[i]) }
        return String(decoding: bytes, as: UTF8.self)
    }
}
