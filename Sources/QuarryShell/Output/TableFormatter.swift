// `table` mode, the default on a terminal: columns aligned by display width
// (so accented and CJK names line up), numbers right-aligned, NULL visible,
// and a row count underneath, in the style of psql.
//
//      name | salary
//     ------+--------
//      José |  61000
//     (1 row)

struct TableFormatter: RowStreamFormatter {
    func format(_ r: ResultSet) -> String { streamed(r) }

    var needsSummary: Bool { true }

    func head(_ columns: [String], _ summary: ColumnSummary) -> String {
        let widths = summary.widths
        let out = " " + columns.enumerated().map { i, c in DisplayWidth.pad(c, to: widths[i]) }.joined(separator: " | ")
        return Self.trimTrailing(out) + "\n" + widths.map { String(repeating: "-", count: $0 + 2) }.joined(separator: "+") + "\n"
    }

    func rows(_ rows: [[Value]], from index: Int, _ columns: [String], _ summary: ColumnSummary) -> String {
        let widths = summary.widths, numeric = summary.numeric
        var out = ""
        for row in rows {
            let cells = row.map { Self.clean(CellText.text($0)) }
            let line = " " + cells.enumerated().map { i, c in DisplayWidth.pad(c, to: widths[i], right: numeric[i]) }.joined(separator: " | ")
            out += Self.trimTrailing(line) + "\n"
        }
        return out
    }

    func tail(_ columns: [String], count: Int, _ summary: ColumnSummary) -> String {
        "(\(count) row\(count == 1 ? "" : "s"))\n"
    }

    func writeSections(_ sections: [ResultSection], columns: [String], to emit: (String) -> Bool) {
        if sections.isEmpty { _ = emit("(0 sections)\n"); return }
        writeHeadedSections(sections, header: { "== \($0.title) ==" }, to: emit)
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
