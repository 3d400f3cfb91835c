// `markdown` mode: a GitHub-flavoured pipe table, numbers right-aligned
// (`---:`), `|` escaped in cells, sections as `###` headings.

struct MarkdownFormatter: RowStreamFormatter {
    static func cell(_ s: String) -> String {
        TableFormatter.clean(s).replacingOccurrences(of: "|", with: "\\|")
    }

    func format(_ r: ResultSet) -> String { streamed(r) }

    /// The separator line marks numeric columns: it needs every row first.
    var needsSummary: Bool { true }

    func head(_ columns: [String], _ summary: ColumnSummary) -> String {
        "| " + columns.map(Self.cell).joined(separator: " | ") + " |\n"
            + "|" + summary.numeric.map { $0 ? " ---: |" : " --- |" }.joined() + "\n"
    }

    func rows(_ rows: [[Value]], from index: Int, _ columns: [String], _ summary: ColumnSummary) -> String {
        var out = ""
        for row in rows {
            out += "| " + row.map { Self.cell(CellText.text($0)) }.joined(separator: " | ") + " |\n"
        }
        return out
    }

    func writeSections(_ sections: [ResultSection], columns: [String], to emit: (String) -> Bool) {
        writeHeadedSections(sections, header: { "### \($0.title)\n" }, to: emit)
    }
}
