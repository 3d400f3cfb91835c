// `json` and `ndjson` modes: each row an object keyed by column name, in
// column order. `json` prints one array with a row per line (diffable);
// `ndjson` prints one object per line and nothing else, for `jq` and
// streaming tools. Sections: `json` nests rows under each section,
// `ndjson` puts a "section" key first in every row.

struct JSONFormatter: RowStreamFormatter {
    var lines: Bool

    func object(_ columns: [String], _ row: [Value], section: String? = nil) -> JSON {
        var members: [(String, JSON)] = section.map { [("section", .string($0))] } ?? []
        members += zip(columns, row).map { ($0, CellText.json($1)) }
        return .object(members)
    }

    func format(_ r: ResultSet) -> String { streamed(r) }

    /// `json`: the array opens with the first row, so an empty one is `[]`.
    func rows(_ rows: [[Value]], from index: Int, _ columns: [String], _ summary: ColumnSummary) -> String {
        var out = ""
        for (k, row) in rows.enumerated() {
            let text = object(columns, row).serialized
            if lines { out += text + "\n" } else { out += (index + k == 0 ? "[\n" : ",\n") + text }
        }
        return out
    }

    func tail(_ columns: [String], count: Int, _ summary: ColumnSummary) -> String {
        lines ? "" : (count == 0 ? "[]\n" : "\n]\n")
    }

    func format(sections: [ResultSection], columns: [String]) -> String {
        if lines {
            return sections.flatMap { s in s.rows.rows.map { object(columns, $0, section: s.name).serialized + "\n" } }.joined()
        }
        if sections.isEmpty { return "[]\n" }
        let items = sections.map { s -> String in
            let head: JSON = .object([("section", .string(s.name)), ("indexTitle", .string(s.indexTitle)),
                                      ("count", .int(Int64(s.rows.rows.count)))])
            var text = head.serialized
            text.removeLast()
            let rows = s.rows.rows.map { "  " + object(columns, $0).serialized }
            return text + ",\"objects\":[\n" + rows.joined(separator: ",\n") + "\n]}"
        }
        return "[\n" + items.joined(separator: ",\n") + "\n]\n"
    }
}
