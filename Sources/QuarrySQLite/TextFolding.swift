// Folding for the [c] / [d] options inside SQLite (`quarry_fold`, and the
// needles and patterns of the other functions): the in-memory evaluator's own
// `Folding.fold`, so SQL and memory fold with one set of rules (ASCII by
// lower-casing, other text through the evaluator's per-scalar table, and
// Foundation for what the table cannot decide). Differential tests
// (Tests/QuarrySQLiteTests/FunctionTests.swift) hold the two to the same answers.
import Foundation
import QuarryEvaluation

/// The folding asked for by a `flags` argument: 1 = [c], 2 = [d].
struct TextFolding: Sendable, Equatable {
    let caseInsensitive: Bool
    let diacriticInsensitive: Bool

    init(flags: Int32) {
        caseInsensitive = flags & 1 != 0
        diacriticInsensitive = flags & 2 != 0
    }

    var isNone: Bool { !caseInsensitive && !diacriticInsensitive }

    /// The evaluator's `Folding.fold`.
    func fold(_ s: String) -> String {
        Folding(caseInsensitive: caseInsensitive, diacriticInsensitive: diacriticInsensitive).fold(s)
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

/// The evaluator's ASCII byte helpers, under the name this module's matchers use.
typealias Bytes = StringBytes
