// What a statement prints, before an output mode turns it into text: a table
// of values (FETCH, COUNT, EVAL, INSERT, UPDATE, DELETE), a list of sections
// (SECTIONS), or free text (EXPLAIN, dot-commands). Keeping results as values
// until the last moment is what lets every statement print in every mode.

/// Named columns and rows of values.
public struct ResultSet: Sendable, Equatable {
    public var columns: [String]
    public var rows: [[Value]]

    public init(columns: [String], rows: [[Value]]) {
        self.columns = columns
        self.rows = rows
    }
}

/// One section of a SECTIONS statement.
public struct ResultSection: Sendable, Equatable {
    /// The section key's value, as text ("NULL" for objects without one).
    public var name: String
    /// The first letter of the name, capitalised (Core Data's index title).
    public var indexTitle: String
    public var rows: ResultSet
}

/// The output of one statement.
public enum StatementOutput: Sendable, Equatable {
    case rows(ResultSet)
    case sections(columns: [String], [ResultSection])
    case text(String)
    /// A write's outcome: a sentence in the text modes, a row in the data
    /// modes (json, ndjson, csv), so scripts can read counts.
    case status(String, ResultSet)
    case none
}

/// The output modes of `--mode` and `.mode`.
public enum OutputMode: String, Sendable, CaseIterable {
    case table, json, ndjson, csv, markdown, line

    /// The formatter for this mode.
    var formatter: any OutputFormatter {
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

/// Turns results into text in one output mode. Every result ends with a
/// newline; an empty string prints nothing.
protocol OutputFormatter {
    func format(_ rows: ResultSet) -> String
    /// Sections as text a piece at a time (a header, or at most
    /// `sectionPieceRows` rows), so a long SECTIONS result can stop between
    /// pieces; `emit` returns false to stop. Joined, the pieces are
    /// `format(sections:columns:)`.
    func writeSections(_ sections: [ResultSection], columns: [String], to emit: (String) -> Bool)
}

/// Rows in one piece of a SECTIONS result.
let sectionPieceRows = 64

extension OutputFormatter {
    func format(sections: [ResultSection], columns: [String]) -> String {
        var out = ""
        writeSections(sections, columns: columns) { out += $0; return true }
        return out
    }

    func render(_ output: StatementOutput) -> String {
        switch output {
        case .rows(let r): return format(r)
        case .sections(let columns, let s): return format(sections: s, columns: columns)
        case .text(let t): return t.isEmpty || t.hasSuffix("\n") ? t : t + "\n"
        case .status(let sentence, let rows): return self is TableFormatter || self is LineFormatter || self is MarkdownFormatter
            ? sentence + "\n" : format(rows)
        case .none: return ""
        }
    }

}

extension RowStreamFormatter {
    /// Text modes print a section as a header line and its rows (as the
    /// rows alone print), sections apart by a blank line.
    func writeHeadedSections(_ sections: [ResultSection], header: (ResultSection) -> String, to emit: (String) -> Bool) {
        for (i, s) in sections.enumerated() {
            guard emit((i > 0 ? "\n" : "") + header(s) + "\n") else { return }
            let r = s.rows
            var summary = ColumnSummary(columns: r.columns)
            var start = 0
            // Measured in pieces too: `emit("")` is where a Ctrl-C is seen.
            while needsSummary && start < r.rows.count {
                guard emit("") else { return }
                let end = min(start + 4 * sectionPieceRows, r.rows.count)
                summary.add(r.rows[start..<end])
                start = end
            }
            guard emit(head(r.columns, summary)) else { return }
            start = 0
            while start < r.rows.count {
                let end = min(start + sectionPieceRows, r.rows.count)
                guard emit(rows(Array(r.rows[start..<end]), from: start, r.columns, summary)) else { return }
                start = end
            }
            guard emit(tail(r.columns, count: r.rows.count, summary)) else { return }
        }
    }
}

extension ResultSection {
    /// The section's rows a piece at a time.
    var pieces: [ArraySlice<[Value]>] {
        stride(from: 0, to: rows.rows.count, by: sectionPieceRows).map { rows.rows[$0..<min($0 + sectionPieceRows, rows.rows.count)] }
    }
}

extension ResultSection {
    /// `Sales [S] — 12 objects`
    var title: String {
        let n = rows.rows.count
        return "\(name) [\(indexTitle)] — \(n) object\(n == 1 ? "" : "s")"
    }
}
