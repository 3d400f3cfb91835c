// A string literal as the compiler would deliver it, with the source offset
// of every decoded byte: a diagnostic at byte 7 of the decoded text is shown
// at the file position of whatever wrote that byte (a plain character, or
// the backslash of an escape).

public struct DecodedLiteral: Sendable {
    /// The decoded text as UTF-8.
    public var bytes: [UInt8] = []
    /// offsets[i] is the source offset that produced bytes[i]; one more entry
    /// at the end (the closing quote), so an error at the end of the text
    /// still has a place.
    public var offsets: [Int] = []
    /// Source offset of the literal's first character (`"`, `#` or `@`).
    public var start: Int
    /// Why the text is not a compile-time constant (interpolation, `+` with a
    /// non-literal), or nil when it is.
    public var notConstant: String?
    /// A problem reading the literal itself (unterminated, bad escape).
    public var problem: String?

    public init(start: Int) { self.start = start }

    public var text: String { String(decoding: bytes, as: UTF8.self) }

    mutating func append(_ byte: UInt8, from offset: Int) {
        bytes.append(byte)
        offsets.append(offset)
    }

    mutating func append(scalar: Unicode.Scalar, from offset: Int) {
        for b in String(Character(scalar)).utf8 { append(b, from: offset) }
    }

    /// Source offset for a byte offset into the decoded text.
    public func sourceOffset(of index: Int) -> Int {
        if offsets.isEmpty { return start }
        return offsets[max(0, min(index, offsets.count - 1))]
    }

    /// Joins another literal after this one (Objective-C adjacent literals,
    /// Swift `"a" + "b"`).
    mutating func join(_ other: DecodedLiteral) {
        if !offsets.isEmpty { offsets.removeLast() }
        bytes += other.bytes
        offsets += other.offsets
        notConstant = notConstant ?? other.notConstant
        problem = problem ?? other.problem
    }
}
