// `line` mode, as sqlite3's: one `column = value` line per column, names
// right-aligned, a blank line between rows. Good for wide rows.

struct LineFormatter: RowStreamFormatter {
    func format(_ r: ResultSet) -> String { streamed(r) }

    /// Rows after the first start with the blank line that separates them.
    func rows(_ rows: [[Value]], from index: Int, _ columns: [String], _ summary: ColumnSummary) -> String {
        let width = columns.map(DisplayWidth.of).max() ?? 0
        var out = ""
        for (k, row) in rows.enumerated() {
            if index + k > 0 { out += "\n" }
            out += zip(columns, row).map { DisplayWidth.pad($0, to: width, right: true) + " = " + CellText.text($1) + "\n" }.joined()
        }
        return out
    }

    func writeSections(_ sections: [ResultSection], columns: [String], to emit: (String) -> Bool) {
        writeHeadedSections(sections, header: { "== \($0.title) ==" }, to: emit)
    }
}
