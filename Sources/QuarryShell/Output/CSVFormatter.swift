// `csv` mode, RFC 4180: a header row, CRLF line ends, and a field quoted
// (with inner quotes doubled) when it holds a comma, a quote, CR or LF, or
// starts or ends with a space. Null is an empty field; an empty string is
// `""`, so the two stay apart. Sections add a leading "section" column.

struct CSVFormatter: RowStreamFormatter {
    static func field(_ s: String) -> String {
        let needsQuotes = s.isEmpty || s.contains { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
            || s.first == " " || s.last == " "
        guard needsQuotes else { return s }
        return "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    static func cell(_ v: Value) -> String {
        if v.isNull { return "" }
        return field(CellText.text(v))
    }

    func format(_ r: ResultSet) -> String { streamed(r) }

    func head(_ columns: [String], _ summary: ColumnSummary) -> String {
        columns.map(Self.field).joined(separator: ",") + "\r\n"
    }

    func rows(_ rows: [[Value]], from index: Int, _ columns: [String], _ summary: ColumnSummary) -> String {
        var out = ""
        for row in rows { out += row.map(Self.cell).joined(separator: ",") + "\r\n" }
        return out
    }

    func writeSections(_ sections: [ResultSection], columns: [String], to emit: (String) -> Bool) {
        guard emit((["section"] + columns).map(Self.field).joined(separator: ",") + "\r\n") else { return }
        for s in sections {
            for piece in s.pieces {
                guard emit(piece.map { row in ([Self.field(s.name)] + row.map(Self.cell)).joined(separator: ",") + "\r\n" }.joined()) else { return }
            }
        }
    }
}
