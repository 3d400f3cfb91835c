// The data PostgreSQL needs to fold text exactly as the evaluator's `Folding`
// does ([c], [d], [cd]), without Swift on the server, and a Swift mirror of
// the SQL (`PostgresFoldTable.fold`) so that the scheme can be checked here.
//
// Per-scalar folding is not the whole story: under [d], Foundation drops a
// combining mark only in context. After a "low" base (Latin, Greek, Cyrillic,
// digits, punctuation: bases Foundation decomposes), it drops the whole run of
// following marks in `lowMarks`; after a "high" base (CJK, kana, Hangul,
// Hebrew, Arabic, Indic, emoji …) it drops only the first following mark, and
// only one of the short `highMarks` set; a mark that starts the string stays.
// Under [cd], U+0345 (ypogegrammeni) folds to ι only at the very start; kept
// after a base (Cherokee Ꭰ, fullwidth Ａ: bases that case-fold but are
// neither low nor high) it stays U+0345 (`initialOnly`). Everything else folds scalar
// by scalar (`map`), and the result is put in NFC, as SQLite's `quarry_fold`
// does. Input must be NFC (stores keep text NFC, see StoredText.swift), so
// scalars that never occur in NFC text are left out of the map.
//
// Known differences (no realistic text has them): Foundation reorders a run
// of several kept marks when one of class 0 (U+FE0F, emoji modifiers) follows
// one of non-zero class; the SQL keeps the input order.
//
// `generate()` recomputes everything from the evaluator; the committed copy
// is PostgresFoldTable+Data.swift. Regenerate it with
//   QUARRY_REGENERATE_PG_FOLD=1 swift test --filter PostgresFoldingTableTests
// and a test fails while the committed copy is stale.
import Foundation
import QuarryEvaluation

public struct PostgresFoldTable: Sendable, Equatable {
    /// Scalar → folded scalars (empty = dropped), for scalars that change.
    public var map: [UInt32: [UInt32]] = [:]
    /// Bases after which every following mark in `lowMarks` is dropped.
    public var lowBases: [ClosedRange<UInt32>] = []
    public var lowMarks: [ClosedRange<UInt32>] = []
    /// Bases after which one following mark in `highMarks` is dropped.
    public var highBases: [ClosedRange<UInt32>] = []
    public var highMarks: [ClosedRange<UInt32>] = []
    /// Scalars folded by `map` only at the start of the string.
    public var initialOnly: [UInt32] = []

    public init() {}

    /// The table for flags 1 ([c]), 2 ([d]) or 3 ([cd]), as committed.
    public static func committed(flags: Int) -> PostgresFoldTable {
        switch flags {
        case 1: return parsedCase
        case 2: return parsedDiacritic
        default: return parsedBoth
        }
    }

    static let parsedCase = PostgresFoldTable(serialized: PostgresFoldData.caseInsensitive)
    static let parsedDiacritic = PostgresFoldTable(serialized: PostgresFoldData.diacriticInsensitive)
    static let parsedBoth = PostgresFoldTable(serialized: PostgresFoldData.both)

    /// Scalars that extend the grapheme cluster before them (Extend, ZWJ,
    /// SpacingMark): a match may not end just before one, nor start on one.
    public static var graphemeExtenders: [ClosedRange<UInt32>] {
        PostgresFoldTable.ranges(PostgresFoldData.graphemeExtenders)
    }
}

// MARK: Generation

extension PostgresFoldTable {
    static func scalarString(_ v: UInt32) -> String { String(String.UnicodeScalarView([Unicode.Scalar(v)!])) }

    /// Assigned, non-private scalars.
    static var assignedScalars: [UInt32] {
        var out: [UInt32] = []
        for v in UInt32(0)...0x10FFFF {
            guard let u = Unicode.Scalar(v) else { continue }
            switch u.properties.generalCategory {
            case .unassigned, .privateUse, .surrogate: continue
            default: out.append(v)
            }
        }
        return out
    }

    /// Recomputes the table for `flags` from the evaluator's folding.
    public static func generate(flags: Int) -> PostgresFoldTable {
        let folding = Folding(caseInsensitive: flags & 1 != 0, diacriticInsensitive: flags & 2 != 0)
        let scalars = assignedScalars
        var table = PostgresFoldTable()
        var single: [UInt32: [UInt32]] = [:]
        for v in scalars {
            let s = scalarString(v)
            guard s.precomposedStringWithCanonicalMapping.unicodeScalars.elementsEqual(s.unicodeScalars) else { continue }
            let f = folding.fold(s).unicodeScalars.map(\.value)
            single[v] = f
            if f != [v] { table.map[v] = f }
        }
        func folded(_ v: UInt32) -> String { String(String.UnicodeScalarView((single[v] ?? [v]).map { Unicode.Scalar($0)! })) }
        var lowMarks = Set<UInt32>(), highMarks = Set<UInt32>()
        let lowProbe = "1", highProbe = "\u{4E1B}"
        for v in scalars where v >= 0x80 && single[v] != nil {
            let m = scalarString(v)
            if folding.fold(lowProbe + m) == folding.fold(lowProbe) { lowMarks.insert(v) }
            if folding.fold(highProbe + m) == folding.fold(highProbe) { highMarks.insert(v) }
        }
        var lowBases = Set<UInt32>(), highBases = Set<UInt32>()
        for v in scalars where single[v] != nil && !lowMarks.contains(v) && !highMarks.contains(v) {
            let b = scalarString(v), fb = folded(v)
            if folding.fold(b + "\u{5B0}") == fb { lowBases.insert(v) }
            else if folding.fold(b + "\u{335}") == fb { highBases.insert(v) }
        }
        // A base that case-folds but is neither low nor high (FULLWIDTH A under
        // [cd]) keeps the marks after it exactly as they are.
        let keepProbe = "\u{FF21}"
        for v in lowMarks.union(highMarks) where table.map[v] != nil {
            if folding.fold(keepProbe + scalarString(v)) == folding.fold(keepProbe) + scalarString(v) {
                table.initialOnly.append(v)
            }
        }
        table.initialOnly.sort()
        table.lowBases = ranges(of: lowBases)
        table.lowMarks = ranges(of: lowMarks)
        table.highBases = ranges(of: highBases)
        table.highMarks = ranges(of: highMarks)
        return table
    }

    public static func generateGraphemeExtenders() -> [ClosedRange<UInt32>] {
        var ext = Set<UInt32>()
        for v in assignedScalars where v >= 0x80 && ("a" + scalarString(v)).count == 1 { ext.insert(v) }
        return ranges(of: ext)
    }

    static func ranges(of set: Set<UInt32>) -> [ClosedRange<UInt32>] {
        var out: [ClosedRange<UInt32>] = []
        for v in set.sorted() {
            if let last = out.last, last.upperBound + 1 == v { out[out.count - 1] = last.lowerBound...v } else { out.append(v...v) }
        }
        return out
    }
}

// MARK: Serialization (the committed data)

extension PostgresFoldTable {
    static func hex(_ v: UInt32) -> String { String(v, radix: 16, uppercase: true) }

    static func serialize(_ r: [ClosedRange<UInt32>]) -> String {
        r.map { $0.lowerBound == $0.upperBound ? hex($0.lowerBound) : hex($0.lowerBound) + "-" + hex($0.upperBound) }
            .joined(separator: " ")
    }

    static func ranges(_ s: String) -> [ClosedRange<UInt32>] {
        s.split(separator: " ").map { item in
            let parts = item.split(separator: "-").map { UInt32($0, radix: 16)! }
            return parts[0]...(parts.count > 1 ? parts[1] : parts[0])
        }
    }

    /// One line per field: `map` entries as `SRC:DST,DST;…`, ranges as `A-B C …`.
    public var serialized: String {
        let hex = PostgresFoldTable.hex
        let entries: [String] = map.keys.sorted().map { k in
            let targets: [String] = map[k]!.map(hex)
            return hex(k) + ":" + targets.joined(separator: ",")
        }
        let initial: [String] = initialOnly.map(hex)
        var lines: [String] = []
        lines.append("map " + entries.joined(separator: ";"))
        lines.append("lowBases " + PostgresFoldTable.serialize(lowBases))
        lines.append("lowMarks " + PostgresFoldTable.serialize(lowMarks))
        lines.append("highBases " + PostgresFoldTable.serialize(highBases))
        lines.append("highMarks " + PostgresFoldTable.serialize(highMarks))
        lines.append("initialOnly " + initial.joined(separator: " "))
        return lines.joined(separator: "\n")
    }

    init(serialized text: String) {
        for line in text.split(separator: "\n") {
            guard let space = line.firstIndex(of: " ") else { continue }
            let key = line[..<space], value = String(line[line.index(after: space)...])
            switch key {
            case "map":
                for entry in value.split(separator: ";") {
                    let kv = entry.split(separator: ":", omittingEmptySubsequences: false)
                    map[UInt32(kv[0], radix: 16)!] = kv[1].split(separator: ",").map { UInt32($0, radix: 16)! }
                }
            case "lowBases": lowBases = PostgresFoldTable.ranges(value)
            case "lowMarks": lowMarks = PostgresFoldTable.ranges(value)
            case "highBases": highBases = PostgresFoldTable.ranges(value)
            case "highMarks": highMarks = PostgresFoldTable.ranges(value)
            case "initialOnly": initialOnly = value.split(separator: " ").map { UInt32($0, radix: 16)! }
            default: break
            }
        }
    }
}

// MARK: The Swift mirror of the SQL

extension PostgresFoldTable {
    static func contains(_ r: [ClosedRange<UInt32>], _ v: UInt32) -> Bool {
        var lo = 0, hi = r.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if r[mid].upperBound < v { lo = mid + 1 } else { hi = mid }
        }
        return lo < r.count && r[lo].contains(v)
    }

    /// What the SQL `quarry_fold(s, flags)` computes, step for step: ASCII
    /// lower-cased under [c]; else marks dropped by context, scalars mapped,
    /// NFC.
    public static func fold(_ s: String, flags: Int) -> String {
        if flags & 3 == 0 { return s }
        if s.utf8.allSatisfy({ $0 < 0x80 }) { return flags & 1 != 0 ? StringBytes.asciiLowercased(s) : s }
        let t = committed(flags: flags & 3)
        var out = String.UnicodeScalarView()
        var state = 0 // 1: after a low base, 2: after a high base
        var first = true
        for u in s.unicodeScalars {
            let v = u.value
            if state == 1 && contains(t.lowMarks, v) { continue }
            if state == 2 && contains(t.highMarks, v) { state = 0; continue }
            state = contains(t.lowBases, v) ? 1 : contains(t.highBases, v) ? 2 : 0
            if let m = t.map[v], first || !t.initialOnly.contains(v) {
                out.append(contentsOf: m.map { Unicode.Scalar($0)! })
            } else {
                out.append(u)
            }
            first = false
        }
        return String(out).precomposedStringWithCanonicalMapping
    }
}
