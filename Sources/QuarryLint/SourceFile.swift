// A source file as bytes, with line starts so that any byte offset becomes
// the line and column a compiler would print (columns count characters, so
// a caret lines up under non-ASCII text).

/// Which language a file is read as: decides the string-literal syntax.
public enum SourceLanguage: Sendable {
    case swift, objectiveC

    /// By file extension; nil for files the linter does not read.
    public init?(path: String) {
        if path.hasSuffix(".swift") { self = .swift }
        else if path.hasSuffix(".m") || path.hasSuffix(".mm") || path.hasSuffix(".h") { self = .objectiveC }
        else { return nil }
    }
}

public struct SourceFile: Sendable {
    public let path: String
    public let bytes: [UInt8]
    public let language: SourceLanguage
    /// Byte offset at which each line starts; lineStarts[0] == 0.
    let lineStarts: [Int]

    public init(path: String, bytes: [UInt8], language: SourceLanguage) {
        self.path = path
        self.bytes = bytes
        self.language = language
        var starts = [0]
        for (i, b) in bytes.enumerated() where b == 0x0A { starts.append(i + 1) }
        self.lineStarts = starts
    }

    public init(path: String, text: String, language: SourceLanguage) {
        self.init(path: path, bytes: Array(text.utf8), language: language)
    }

    /// 1-based line of a byte offset.
    func line(of offset: Int) -> Int {
        var lo = 0, hi = lineStarts.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if lineStarts[mid] <= offset { lo = mid } else { hi = mid - 1 }
        }
        return lo + 1
    }

    /// 1-based line and character column of a byte offset.
    func location(of offset: Int) -> (line: Int, column: Int) {
        let offset = max(0, min(offset, bytes.count))
        let line = line(of: offset)
        let start = lineStarts[line - 1]
        let column = String(decoding: bytes[start..<offset], as: UTF8.self).count + 1
        return (line, column)
    }

    /// The text of a 1-based line, without its line break.
    func lineText(_ line: Int) -> String {
        guard line >= 1, line <= lineStarts.count else { return "" }
        let start = lineStarts[line - 1]
        var end = line < lineStarts.count ? lineStarts[line] - 1 : bytes.count
        if end > start, bytes[end - 1] == 0x0D { end -= 1 }
        return String(decoding: bytes[start..<max(start, end)], as: UTF8.self)
    }
}
