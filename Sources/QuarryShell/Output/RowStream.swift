// A result printed in pieces: a head, rows a batch at a time, and a tail —
// so that `FETCH … BATCH n` can print each batch as it arrives instead of
// holding every row. Every output mode prints a whole result through these
// same pieces (`streamed`), so the streamed text is the whole-result text by
// construction, byte for byte.
//
// Two modes must see every row before their first line: `table` pads each
// column to its widest cell and right-aligns numeric columns, `markdown`
// marks numeric columns in its separator line. For them a `ColumnSummary`
// is gathered first (a streaming caller reads the rows twice); the other
// modes need none.

/// What the padded modes must know about all rows: the widest cell of each
/// column (header included) and whether all its non-null values are numbers.
struct ColumnSummary {
    private(set) var widths: [Int]
    private var numbersOnly: [Bool]
    private var sawValue: [Bool]

    init(columns: [String]) {
        widths = columns.map(DisplayWidth.of)
        numbersOnly = Array(repeating: true, count: columns.count)
        sawValue = Array(repeating: false, count: columns.count)
    }

    /// A column is numeric when every non-null value in it is a number (and there is one).
    var numeric: [Bool] { zip(numbersOnly, sawValue).map { $0 && $1 } }

    /// The widest line of a table with these columns (its separator line:
    /// each column and the space either side, joined by `+`).
    var tableWidth: Int { widths.reduce(0, +) + 3 * widths.count - 1 }

    /// `.width`: columns at least this wide (0 leaves one as measured).
    mutating func widen(to minimums: [Int]) {
        for (i, w) in minimums.enumerated() where i < widths.count { widths[i] = max(widths[i], w) }
    }

    mutating func add<Rows: Sequence>(_ rows: Rows) where Rows.Element == [Value] {
        for row in rows {
            for (i, v) in row.enumerated() where i < widths.count {
                widths[i] = max(widths[i], DisplayWidth.of(TableFormatter.clean(CellText.text(v))))
                if !v.isNull {
                    sawValue[i] = true
                    if !CellText.isNumeric(v) { numbersOnly[i] = false }
                }
            }
        }
    }
}

/// An output mode that can print a result in pieces.
protocol RowStreamFormatter: OutputFormatter {
    /// Whether `head` and `rows` need the `ColumnSummary` of every row.
    var needsSummary: Bool { get }
    func head(_ columns: [String], _ summary: ColumnSummary) -> String
    /// Rows `index ..< index + rows.count` of the result.
    func rows(_ rows: [[Value]], from index: Int, _ columns: [String], _ summary: ColumnSummary) -> String
    func tail(_ columns: [String], count: Int, _ summary: ColumnSummary) -> String
}

extension RowStreamFormatter {
    var needsSummary: Bool { false }
    func head(_ columns: [String], _ summary: ColumnSummary) -> String { "" }
    func tail(_ columns: [String], count: Int, _ summary: ColumnSummary) -> String { "" }

    /// The whole result, printed as a stream of one batch would be.
    func streamed(_ r: ResultSet) -> String {
        var summary = ColumnSummary(columns: r.columns)
        if needsSummary { summary.add(r.rows) }
        return head(r.columns, summary) + rows(r.rows, from: 0, r.columns, summary) + tail(r.columns, count: r.rows.count, summary)
    }
}

extension OutputMode {
    /// The formatter for this mode, as a stream.
    var streamFormatter: any RowStreamFormatter {
        switch self {
        case .table: return TableFormatter()
        case .json: return JSONFormatter(lines: false)
        case .ndjson: return JSONFormatter(lines: true)
        case .csv: return CSVFormatter()
        case .markdown: return MarkdownFormatter()
        case .line: return LineFormatter()
        }
    }
}
