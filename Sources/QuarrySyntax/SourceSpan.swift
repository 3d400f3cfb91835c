// Source positions. Every token and AST node carries the UTF-8 byte range it
// came from; line and column are computed only when a diagnostic is shown.
//
// Spans deliberately do not take part in equality: two trees are equal when
// they mean the same thing, wherever their text stood. That is what makes
// `parse(print(tree)) == tree` a meaningful check. Compare `start`/`end`
// directly when a test cares about positions.

/// A half-open range of UTF-8 byte offsets into the source text.
public struct SourceSpan: Sendable, Hashable, CustomStringConvertible {
    public var start: Int
    public var end: Int

    public init(start: Int, end: Int) {
        self.start = start
        self.end = end
    }

    /// A span for nodes that no source text produced (built by code, substituted).
    public static let synthesized = SourceSpan(start: 0, end: 0)

    public var length: Int { end - start }

    /// The smallest span covering both.
    public func union(_ other: SourceSpan) -> SourceSpan {
        SourceSpan(start: Swift.min(start, other.start), end: Swift.max(end, other.end))
    }

    public static func == (_: SourceSpan, _: SourceSpan) -> Bool { true }
    public func hash(into hasher: inout Hasher) {}

    public var description: String { "\(start)..<\(end)" }
}

/// A 1-based line and column; the column counts characters, not bytes, so the
/// caret lines up under non-ASCII text.
public struct SourceLocation: Sendable, Equatable, CustomStringConvertible {
    public var line: Int
    public var column: Int
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }
    public var description: String { "\(line):\(column)" }
}

/// Source text with the helpers diagnostics need.
public struct SourceText: Sendable {
    public let text: String
    public let utf8: [UInt8]

    public init(_ text: String) {
        self.text = text
        self.utf8 = Array(text.utf8)
    }

    /// Line and column of a byte offset (clamped into the text).
    public func location(of offset: Int) -> SourceLocation {
        let offset = Swift.max(0, Swift.min(offset, utf8.count))
        var line = 1
        var lineStart = 0
        var i = 0
        while i < offset {
            if utf8[i] == 0x0A { line += 1; lineStart = i + 1 }
            i += 1
        }
        return SourceLocation(line: line, column: characterCount(from: lineStart, to: offset) + 1)
    }

    /// The text of the line holding `offset`, without its newline, and the
    /// byte offset where that line starts.
    public func line(containing offset: Int) -> (text: String, start: Int) {
        let offset = Swift.max(0, Swift.min(offset, utf8.count))
        var start = offset
        while start > 0 && utf8[start - 1] != 0x0A { start -= 1 }
        var end = offset
        while end < utf8.count && utf8[end] != 0x0A { end += 1 }
        var slice = utf8[start..<end]
        if slice.last == 0x0D { slice = slice.dropLast() }
        return (String(decoding: slice, as: UTF8.self), start)
    }

    /// Characters (extended grapheme clusters) between two byte offsets;
    /// falls back to counting scalars when the offsets split a character.
    public func characterCount(from start: Int, to end: Int) -> Int {
        guard end > start else { return 0 }
        let slice = utf8[start..<Swift.min(end, utf8.count)]
        return String(decoding: slice, as: UTF8.self).count
    }
}
