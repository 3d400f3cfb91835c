// `markdown` mode: a GitHub-flavoured pipe table, numbers right-aligned
// (`---:`), `|` escaped in cells, sections as `###` headings.

struct MarkdownFormatter: OutputFormatter {
    static func cell(_ s: String) -> String {
        TableFormatter.clean(s).replacingOccurrences(of: "|", with: "\\|")
    }

    func format(_ r: ResultSet) -> String {
        let numeric = r.columns.indices.map { i in
            let values = r.rows.map { $0[i] }.filter { !$0.isNull }
            return !values.isEmpty && values.allSatisfy(CellText.isNumeric)
        }
        var out = "| " + r.columns.map(Self.cell).joined(separator: " | ") + " |\n"
        out += "|" + numeric.map { $0 ? " ---: |" : " --- |" }.joined() + "\n"
        for row in r.rows {
            out += "| " + row.map { Self.cell(CellText.text($0)) }.joined(separator: " | ") + " |\n"
        }
        return out
    }

    func format(sections: [ResultSection], columns: [String]) -> String {
        headedSections(sections) { "### \($0.title)\n" }
    }
}
