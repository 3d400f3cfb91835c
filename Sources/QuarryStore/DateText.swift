// Dates written as text, read one way everywhere a user types one: fixture
// factories, and the shell's INSERT, UPDATE and comparisons (where a date
// copied from the shell's own output must find its objects). Seconds since
// 2001-01-01 UTC, or ISO 8601: a date-time with or without fractional
// seconds, or a bare date (midnight UTC).
import Foundation

public enum DateText {
    /// Seconds since 2001-01-01 UTC for `text`, or nil when it is no date.
    ///
    /// ```swift
    /// DateText.seconds("2001-01-02")              // 86400
    /// DateText.seconds("2024-03-01T09:00:00Z")    // 730_976_400
    /// ```
    public static func seconds(_ text: String) -> Double? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let seconds = Double(trimmed) { return seconds }
        let formatter = ISO8601DateFormatter()
        for options: ISO8601DateFormatter.Options in [
            [.withInternetDateTime], [.withInternetDateTime, .withFractionalSeconds], [.withFullDate],
        ] {
            formatter.formatOptions = options
            if let d = formatter.date(from: trimmed) { return d.timeIntervalSinceReferenceDate }
        }
        return nil
    }
}
