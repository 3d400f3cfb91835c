// `table` mode, the default on a terminal: columns aligned by display width
// (so accented and CJK names line up), numbers right-aligned, NULL visible,
// and a row count underneath, in the style of psql.
//
//      name | salary
//     ------+--------
//      José |  61000
//     (1 row)

struct TableFormatter: OutputFormatter {
    func format(_ r: ResultSet) -> String {
        let cells = r.rows.map { row in row.map { Self.clean(CellText.text($0)) } }
        var widths = r.columns.map(DisplayWidth.of)
        for row in cells {
            for (i, c) in row.enumerated() where i < widths.count { widths[i] = max(widths[i], DisplayWidth.of(c)) }
        }
        // A column is numeric when every non-null value in it is a number.
        let numeric = r.columns.indices.map { i in
            let values = r.rows.map { $0[i] }.filter { !$0.isNull }
            return !values.isEmpty && values.allSatisfy(CellText.isNumeric)
        }
        var out = " " + r.columns.enumerated().map { i, c in DisplayWidth.pad(c, to: widths[i]) }.joined(separator: " | ")
        out = Self.trimTrailing(out) + "\n"
        out += widths.map { String(repeating: "-", count: $0 + 2) }.joined(separator: "+") + "\n"
        for row in cells {
            let line = " " + row.enumerated().map { i, c in DisplayWidth.pad(c, to: widths[i], right: numeric[i]) }.joined(separator: " | ")
            out += Self.trimTrailing(line) + "\n"
        }
        out += "(\(r.rows.count) row\(r.rows.count == 1 ? "" : "s"))\n"
        return out
    }

    func format(sections: [ResultSection], columns: [String]) -> String {
        if sections.isEmpty { return "(0 sections)\n" }
        return headedSections(sections) { "== \($0.title) ==" }
    }

    /// Control characters would break the grid; show them escaped.
    static func clean(_ s: String) -> String {
        guard s.unicodeScalars.contains(where: { $0.value < 0x20 }) else { return s }
        return s.replacingOccurrences(of: "\n", with: "\\n").replacingOccurrences(of: "\r", with: "\\r")
            .replacingOccurrences(of: "\t", with: "\\t")
    }

    static func trimTrailing(_ s: String) -> String {
        var s = Substring(s)
        while s.last == " " { s = s.dropLast() }
        return String(s)
    }
}
