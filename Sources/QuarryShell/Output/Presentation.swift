// The sqlite3-style display settings on top of an output mode: `.headers
// off` (no column names, and no row count under a table: psql's
// tuples-only), `.nullvalue TEXT` (what NULL prints as in the text modes;
// json and ndjson keep null), `.width N ...` (minimum column widths in table
// mode), `.expanded on|off|auto` (table results in line mode: always, or —
// as psql's `\x auto` — only when a row would be wider than the terminal;
// off by default, as in psql). A wrapper around a mode's stream formatter,
// so streamed and whole results stay the same text.

/// `.expanded`: when table results print one column per line.
enum Expanded: String, CaseIterable {
    case off, on, auto
}

/// The display settings of a session (`.show` lists them).
struct Presentation: Equatable {
    var headers = true
    var nullText: String?
    var widths: [Int] = []
    var expanded = Expanded.off

    var isDefault: Bool { self == Presentation() }

    /// `mode`'s formatter with these settings.
    func formatter(for mode: OutputMode) -> any RowStreamFormatter {
        let mode = expanded == .on && mode == .table ? .line : mode
        let base = mode.streamFormatter
        return isDefault ? base : PresentedFormatter(base: base, settings: self, mode: mode)
    }
}

extension Presentation {
    /// `.expanded auto`: the line-mode formatter when a table measured as
    /// `summary` is wider than `columns` (the terminal's), else nil.
    func expandedFormatter(for mode: OutputMode, summary: ColumnSummary, columns: Int?) -> (any RowStreamFormatter)? {
        guard expanded == .auto, mode == .table, let columns else { return nil }
        var widened = summary
        widened.widen(to: widths)
        return widened.tableWidth > columns ? formatter(for: .line) : nil
    }
}

struct PresentedFormatter: RowStreamFormatter {
    let base: any RowStreamFormatter
    let settings: Presentation
    let mode: OutputMode

    var needsSummary: Bool { base.needsSummary }

    /// NULL replaced in the text modes; data modes keep it.
    func present(_ rows: [[Value]]) -> [[Value]] {
        guard let text = settings.nullText, mode != .json, mode != .ndjson else { return rows }
        return rows.map { $0.map { $0.isNull ? .string(text) : $0 } }
    }

    func widened(_ summary: ColumnSummary) -> ColumnSummary {
        var s = summary
        s.widen(to: settings.widths)
        return s
    }

    func format(_ r: ResultSet) -> String {
        var summary = ColumnSummary(columns: r.columns)
        let rows = present(r.rows)
        if needsSummary { summary.add(rows) }
        return head(r.columns, summary) + self.rows(r.rows, from: 0, r.columns, summary) + tail(r.columns, count: r.rows.count, summary)
    }

    func writeSections(_ sections: [ResultSection], columns: [String], to emit: (String) -> Bool) {
        base.writeSections(sections, columns: columns, to: emit)
    }

    func head(_ columns: [String], _ summary: ColumnSummary) -> String {
        settings.headers ? base.head(columns, widened(summary)) : ""
    }

    func rows(_ rows: [[Value]], from index: Int, _ columns: [String], _ summary: ColumnSummary) -> String {
        base.rows(present(rows), from: index, columns, widened(summary))
    }

    func tail(_ columns: [String], count: Int, _ summary: ColumnSummary) -> String {
        settings.headers || mode != .table ? base.tail(columns, count: count, widened(summary)) : ""
    }
}
