// MATCHES: the subject must match an ICU regular expression as a whole (not a
// search), through Foundation's NSRegularExpression (ICU on every platform,
// so the dialect is Apple's).
//
// Whole-string semantics: the pattern is checked on its own first (so that
// errors point at what the user wrote), then run as `\A(?:pattern)\z`, which
// is ICU's `matches()`: with backtracking into alternatives, so `a|ab`
// matches "ab". Patterns that could escape the wrapper (`\Q` without `\E`,
// `(?x)` comments) are instead matched anchored and required to cover the
// string.
//
// Catastrophic patterns (`(a+)+$` on "aaaa…b") are cut off: the match runs
// with progress reporting and is stopped after `regexTimeLimit` seconds,
// which becomes error E006. [c] is ICU's case-insensitive flag; [d] folds
// diacritics out of the subject and the pattern text.
import Foundation

public final class CompiledRegex: @unchecked Sendable {
    // NSRegularExpression is immutable and documented thread-safe.
    private let regex: NSRegularExpression
    private let needsCoverageCheck: Bool
    let folding: Folding
    let timeLimit: Double

    /// Throws E005 for an invalid pattern.
    public init(_ pattern: String, folding: Folding, timeLimit: Double, span: SourceSpan) throws(Diagnostic) {
        self.folding = folding
        self.timeLimit = timeLimit
        let text = folding.diacriticInsensitive
            ? pattern.folding(options: [.diacriticInsensitive], locale: nil) : pattern
        var options: NSRegularExpression.Options = []
        if folding.caseInsensitive { options.insert(.caseInsensitive) }
        let plain: NSRegularExpression
        do {
            plain = try NSRegularExpression(pattern: text, options: options)
        } catch {
            throw evaluationError(.invalidRegularExpression, "invalid regular expression '\(pattern)'", at: span,
                                  hints: ["MATCHES takes an ICU regular expression, e.g. '[A-Z].*'"])
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

    /// Whole-string match; E006 when the time limit runs out.
    public func matches(_ subject: String, span: SourceSpan) throws(Diagnostic) -> Bool {
        let s = folding.diacriticInsensitive ? subject.folding(options: [.diacriticInsensitive], locale: nil) : subject
        let length = s.utf16.count
        let range = NSRange(location: 0, length: length)
        let deadline = Date().addingTimeInterval(timeLimit)
        var found = false
        var timedOut = false
        let coverage = needsCoverageCheck
        regex.enumerateMatches(in: s, options: [.reportProgress, .anchored], range: range) { result, _, stop in
            if let result {
                found = !coverage || result.range.length == length
                stop.pointee = true
            } else if Date() > deadline {
                timedOut = true
                stop.pointee = true
            }
        }
        if timedOut {
            throw evaluationError(.regularExpressionTooComplex,
                                  "regular expression took longer than \(timeLimit) s and was stopped",
                                  at: span, hints: ["avoid nested repetition such as (a+)+"])
        }
        return found
    }
}

/// Regular expressions compiled at run time (patterns that are not
/// constants), kept in a small shared cache.
final class RegexCache: @unchecked Sendable {
    private var entries: [String: CompiledRegex] = [:]
    private let lock = NSLock()
    let folding: Folding
    let timeLimit: Double

    init(folding: Folding, timeLimit: Double) {
        self.folding = folding
        self.timeLimit = timeLimit
    }

    func regex(_ pattern: String, span: SourceSpan) throws(Diagnostic) -> CompiledRegex {
        lock.lock()
        if let r = entries[pattern] { lock.unlock(); return r }
        lock.unlock()
        let r = try CompiledRegex(pattern, folding: folding, timeLimit: timeLimit, span: span)
        lock.lock()
        if entries.count >= 64 { entries.removeAll(keepingCapacity: true) }
        entries[pattern] = r
        lock.unlock()
        return r
    }
}
