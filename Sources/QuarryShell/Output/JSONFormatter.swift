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

    /// `json`: `[` then one object per section, its rows nested under
    /// "objects", one a line; `ndjson`: one row a line.
    func writeSections(_ sections: [ResultSection], columns: [String], to emit: (String) -> Bool) {
        if lines {
            for s in sections {
                for piece in s.pieces {
                    guard emit(piece.map { object(columns, $0, section: s.name).serialized + "\n" }.joined()) else { return }
                }
            }
            return
        }
        if sections.isEmpty { _ = emit("[]\n"); return }
        for (i, s) in sections.enumerated() {
            let head: JSON = .object([("section", .string(s.name)), ("indexTitle", .string(s.indexTitle)),
                                      ("count", .int(Int64(s.rows.rows.count)))])
            var text = head.serialized
            text.removeLast()
            guard emit((i == 0 ? "[\n" : ",\n") + text + ",\"objects\":[\n") else { return }
            for (k, piece) in s.pieces.enumerated() {
                guard emit((k == 0 ? "" : ",\n") + piece.map { "  " + object(columns, $0).serialized }.joined(separator: ",\n")) else { return }
            }
            guard emit("\n]}") else { return }
        }
        _ = emit("\n]\n")
    }
}
