// Printing a long result a chunk of rows at a time. A 500 000-row result is
// tens of megabytes of text: formatted whole, then written in one call, it
// would keep printing for seconds after a Ctrl-C (a write to a terminal
// cannot be recalled). Printed through the stream pieces (RowStream.swift)
// a few hundred rows at a time, with the Ctrl-C flag checked between
// chunks, it stops within one chunk; the text is the same as the whole
// result's by construction.

enum ChunkedPrinter {
    /// Results longer than this print in chunks of this many rows.
    static let chunkRows = 64

    /// `expanded`: given the measured columns, the formatter to use instead
    /// (`.expanded auto` on a narrow terminal), or nil.
    static func print(_ r: ResultSet, through formatter: any RowStreamFormatter, to output: (String) -> Void,
                      cancellation: Cancellation, expanded: (ColumnSummary) -> (any RowStreamFormatter)? = { _ in nil }) {
        func emit(_ text: String) { if !text.isEmpty { output(text) } }
        var summary = ColumnSummary(columns: r.columns)
        if formatter.needsSummary {
            // Measuring every cell of a long result takes a while too.
            var i = 0
            while i < r.rows.count {
                if cancellation.isCancelled { return }
                let j = min(i + 4 * chunkRows, r.rows.count)
                let chunk = Array(r.rows[i..<j])
                summary.add((formatter as? PresentedFormatter)?.present(chunk) ?? chunk)
                i = j
            }
            if let wide = expanded(summary) {
                return print(r, through: wide, to: output, cancellation: cancellation)
            }
        }
        emit(formatter.head(r.columns, summary))
        var i = 0
        while i < r.rows.count {
            if cancellation.isCancelled { return }
            let j = min(i + chunkRows, r.rows.count)
            emit(formatter.rows(Array(r.rows[i..<j]), from: i, r.columns, summary))
            i = j
        }
        emit(formatter.tail(r.columns, count: r.rows.count, summary))
    }

    /// Long text (sections, EXPLAIN) in pieces of about 64 KB, cut at line
    /// ends, so a Ctrl-C stops it too.
    static func write(_ text: String, to emit: (String) -> Void, cancellation: Cancellation) {
        guard text.utf8.count > 1 << 16 else {
            if !text.isEmpty { emit(text) }
            return
        }
        var rest = Substring(text)
        while !rest.isEmpty {
            if cancellation.isCancelled { return }
            // Cut after a newline (always a whole character) past 64 KB.
            let probe = rest.utf8.index(rest.startIndex, offsetBy: min(1 << 16, rest.utf8.count))
            let end = rest.utf8[probe...].firstIndex(of: 0x0A).map { rest.utf8.index(after: $0) } ?? rest.endIndex
            emit(String(rest[..<end]))
            rest = rest[end...]
        }
    }
}
