// BEGINSWITH / ENDSWITH / CONTAINS for `quarry_begins`, `quarry_ends` and
// `quarry_contains`, with the needle folded once per statement.
//
// Rows are decided over SQLite's raw UTF-8 bytes where the evaluator decides
// over bytes too (an ASCII needle against ASCII text: the same checks as its
// `StringMatcher`, so the same answers, with no String built). Everything
// else — non-ASCII text, where folding can change lengths (ß → ss), join
// characters ("e\u{301}" does not begin with "e") or fold İ to "i\u{307}" —
// goes to the evaluator itself (EvaluatorBridge.swift). An empty needle never
// matches, as in Apple.
import QuarryEvaluation

final class NeedleMatcher {
    enum Operation {
        case begins, ends, contains
        var keyword: String {
            switch self {
            case .begins: return "BEGINSWITH"
            case .ends: return "ENDSWITH"
            case .contains: return "CONTAINS"
            }
        }
    }

    /// The unfolded needle's bytes and the flags, to check a cached entry.
    let key: [UInt8]
    let flags: Int32
    let operation: Operation
    private let folding: TextFolding
    /// The folded needle.
    private let utf8: [UInt8]
    private let isASCII: Bool
    /// The folded ASCII needle prepared for linear search (CONTAINS).
    private let search: LinearNeedle<UInt8>
    /// Compiled on the first row the bytes cannot decide.
    private var predicate: CompiledPredicateBox?

    init(raw: UnsafeBufferPointer<UInt8>, flags: Int32, operation: Operation) {
        key = Array(raw)
        self.flags = flags
        self.operation = operation
        folding = TextFolding(flags: flags)
        utf8 = Array(folding.fold(String(decoding: raw, as: UTF8.self)).utf8)
        isASCII = utf8.allSatisfy { $0 < 0x80 }
        search = LinearNeedle(isASCII && operation == .contains ? utf8 : [])
    }

    func isFor(_ raw: UnsafeBufferPointer<UInt8>, flags: Int32) -> Bool {
        flags == self.flags && SQLiteFunctions.equal(raw, key)
    }

    func test(_ s: UnsafeBufferPointer<UInt8>) -> Bool {
        if utf8.isEmpty { return false }
        if isASCII {
            let decided: Bool?
            switch operation {
            case .begins: decided = asciiPrefix(s)
            case .ends: decided = asciiSuffix(s)
            case .contains: decided = asciiContains(s)
            }
            if let decided { return decided }
        }
        return evaluator().test(s)
    }

    private func evaluator() -> CompiledPredicateBox {
        if let predicate { return predicate }
        let box = CompiledPredicateBox(operation.keyword, flags: flags, argument: String(decoding: key, as: UTF8.self))
        predicate = box
        return box
    }

    // The three byte-level checks below are the evaluator's StringMatcher
    // fast paths; nil means "the bytes alone cannot decide".

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

    /// Linear in the text whatever the needle (LinearSearch.swift).
    private func asciiContains(_ b: UnsafeBufferPointer<UInt8>) -> Bool? {
        guard Bytes.isASCII(b) else { return nil }
        return search.occurs(in: b, lower: folding.caseInsensitive)
    }
}
