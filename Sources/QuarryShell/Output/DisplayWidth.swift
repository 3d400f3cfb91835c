// How many terminal columns text takes: combining marks and zero-width
// characters take none, East Asian wide and fullwidth characters and emoji
// take two (Unicode's East_Asian_Width W/F ranges, abridged to the blocks that
// matter in practice). Tables align by this, not by character count, so
// `佐藤` and `Zoë` line up.

enum DisplayWidth {
    static func of(_ s: String) -> Int {
        var width = 0
        for ch in s {
            width += of(ch)
        }
        return width
    }

    static func of(_ ch: Character) -> Int {
        guard let first = ch.unicodeScalars.first else { return 0 }
        let v = first.value
        if v < 0x20 || (v >= 0x7F && v < 0xA0) { return 0 }
        if v == 0x200B || v == 0x200C || v == 0x200D || v == 0xFEFF { return 0 }
        switch first.properties.generalCategory {
        case .nonspacingMark, .enclosingMark: return 0
        default: break
        }
        if ch.unicodeScalars.contains(where: { $0.value == 0xFE0F }) { return 2 } // emoji presentation
        if isWide(v) { return 2 }
        return 1
    }

    static func isWide(_ v: UInt32) -> Bool {
        switch v {
        case 0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x23E9...0x23EC, 0x23F0, 0x23F3,
             0x25FD...0x25FE, 0x2614...0x2615, 0x2648...0x2653, 0x267F, 0x2693, 0x26A1, 0x26AA...0x26AB,
             0x26BD...0x26BE, 0x26C4...0x26C5, 0x26CE, 0x26D4, 0x26EA, 0x26F2...0x26F3, 0x26F5, 0x26FA,
             0x26FD, 0x2705, 0x270A...0x270B, 0x2728, 0x274C, 0x274E, 0x2753...0x2755, 0x2757,
             0x2795...0x2797, 0x27B0, 0x27BF, 0x2B1B...0x2B1C, 0x2B50, 0x2B55,
             0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
             0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F,
             0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F004, 0x1F0CF, 0x1F18E, 0x1F191...0x1F19A,
             0x1F200...0x1F64F, 0x1F680...0x1F6FF, 0x1F7E0...0x1F7EB, 0x1F90C...0x1F9FF,
             0x1FA70...0x1FAFF, 0x20000...0x2FFFD, 0x30000...0x3FFFD:
            return true
        default:
            return false
        }
    }

    /// `s` padded with spaces to `width` columns, on the right or the left.
    static func pad(_ s: String, to width: Int, right: Bool = false) -> String {
        let fill = String(repeating: " ", count: max(0, width - of(s)))
        return right ? fill + s : s + fill
    }
}
