// `line` mode, as sqlite3's: one `column = value` line per column, names
// right-aligned, a blank line between rows. Good for wide rows.

struct LineFormatter: OutputFormatter {
    func format(_ r: ResultSet) -> String {
        let width = r.columns.map(DisplayWidth.of).max() ?? 0
        return r.rows.map { row in
            zip(r.columns, row).map { DisplayWidth.pad($0, to: width, right: true) + " = " + CellText.text($1) + "\n" }.joined()
        }.joined(separator: "\n")
    }

    func format(sections: [ResultSection], columns: [String]) -> String {
        headedSections(sections) { "== \($0.title) ==" }
    }
}
