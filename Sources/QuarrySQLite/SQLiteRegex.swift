// MATCHES for `quarry_matches`, mirroring the evaluator's `CompiledRegex`:
// the subject must match an ICU regular expression as a whole, through
// Foundation's NSRegularExpression (Apple's dialect on every platform).
//
// Whole-string semantics: the pattern is checked on its own (so an error
// names what the user wrote), then run as `\A(?:pattern)\z`, with
// backtracking into alternatives, so `a|ab` matches "ab". Patterns that
// could escape that wrapper (`\Q` without `\E`, `(?x)` comments) are matched
// anchored and required to cover the whole string instead. [c] is ICU's
// case-insensitive flag; [d] folds diacritics out of pattern and subject.
//
// A catastrophic pattern (`(a+)+$` against "aaaa…b") is stopped after the
// connection's `regexTimeLimit`, and the SQL statement fails with a message
// that says so; SQLite has no way to stop a user function from outside.
import Foundation

/// A compiled MATCHES pattern, cached per statement with `sqlite3_set_auxdata`.
final class SQLiteRegex {
    /// The messages start with these, so `SQLiteError` can tell the kind.
    static let invalidPrefix = "quarry_matches: invalid regular expression"
    static let timeoutPrefix = "quarry_matches: regular expression took longer than"

    let key: [UInt8]
    let flags: Int32
    private let regex: NSRegularExpression
    private let needsCoverageCheck: Bool
    private let diacriticInsensitive: Bool

    enum Failure: Error { case invalid(String), timedOut(String) }

    init(raw: UnsafeBufferPointer<UInt8>, flags: Int32) throws(Failure) {
        key = Array(raw)
        self.flags = flags
        let folding = TextFolding(flags: flags)
        diacriticInsensitive = folding.diacriticInsensitive
        let pattern = String(decoding: raw, as: UTF8.self)
        let text = diacriticInsensitive ? pattern.folding(options: [.diacriticInsensitive], locale: nil) : pattern
        var options: NSRegularExpression.Options = []
        if folding.caseInsensitive { options.insert(.caseInsensitive) }
        let plain: NSRegularExpression
        do {
            plain = try NSRegularExpression(pattern: text, options: options)
        } catch {
            throw .invalid("\(SQLiteRegex.invalidPrefix) '\(pattern)'")
        }
        let risky = text.contains("\\Q") || (text.contains("(?") && text.contains("#"))
        if !risky, let wrapped = try? NSRegularExpression(pattern: "\\A(?:" + text + ")\\z", options: options) {
            regex = wrapped
            needsCoverageCheck = false
        } else {
            regex = plain
            needsCoverageCheck = true
        }
    }

    func isFor(_ raw: UnsafeBufferPointer<UInt8>, flags: Int32) -> Bool {
        flags == self.flags && raw.elementsEqual(key)
    }

    /// Whole-string match, or `.timedOut` once `timeLimit` seconds have passed.
    func matches(_ bytes: UnsafeBufferPointer<UInt8>, timeLimit: Double) throws(Failure) -> Bool {
        let subject = String(decoding: bytes, as: UTF8.self)
        let s = diacriticInsensitive ? subject.folding(options: [.diacriticInsensitive], locale: nil) : subject
        let length = s.utf16.count
        let deadline = Date().addingTimeInterval(timeLimit)
        var found = false
        var timedOut = false
        let coverage = needsCoverageCheck
        // .reportProgress calls back periodically during a long match: the
        // only point at which a running NSRegularExpression can be stopped.
        regex.enumerateMatches(in: s, options: [.reportProgress, .anchored],
                               range: NSRange(location: 0, length: length)) { result, _, stop in
            if let result {
                found = !coverage || result.range.length == length
                stop.pointee = true
            } else if Date() > deadline {
                timedOut = true
                stop.pointee = true
            }
        }
        if timedOut {
            throw .timedOut("\(SQLiteRegex.timeoutPrefix) \(timeLimit) s and was stopped (avoid nested repetition such as (a+)+)")
        }
        return found
    }
}
