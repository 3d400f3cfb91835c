// Planned SQL is edited as parts (SelectStatement), never as text: no code
// under Sources/ may search, cut or compare SQL text to find a clause in it
// (" FROM ", " WHERE ", " JOIN "...), compare a fragment with "TRUE", or
// split printed predicates into words. This test scans the sources for those
// shapes and lists the offenders; the table of lines below checks the scan
// itself (the lines the planner and the context used to have are caught).
import Foundation
import Testing
@testable import QuarrySQL

@Suite("Planned SQL is not searched as text")
struct PlannedTextGuardTests {
    /// The shapes of a text search on SQL or on a printed predicate.
    static let patterns: [(name: String, regex: NSRegularExpression)] = [
        // A search, cut or replacement whose needle holds an SQL keyword.
        ("clause search", #"(range\(of:|contains\(|components\(separatedBy:|split\(separator:|replacingOccurrences\(of:|hasPrefix\(|hasSuffix\(|firstRange\(of:)\s*#?"[^"]*\b(SELECT|FROM|WHERE|JOIN|ORDER BY|GROUP BY|HAVING|LIMIT|OFFSET|VALUES|UPDATE|DELETE|INSERT|TRUE|FALSE)\b"#),
        // A fragment's text compared with a constant (`fragment.sql == "TRUE"`).
        ("SQL text compared", #"\.sql\s*[!=]=\s*#?""#),
        // SQL text (or a select list's) searched or split by any needle.
        ("SQL text searched", #"\b(sql|select)(\.sql)?\.(range|split|components|contains|firstIndex|firstRange|hasPrefix|hasSuffix|replacingOccurrences)\("#),
        // A printed predicate or expression taken apart into words.
        ("printed text split", #"Printer\.format\([^\n]*\)[^\n]*\.(split|components)\(|\.split\s*\{\s*!\(\$0\.isLetter"#),
    ].map { ($0.0, try! NSRegularExpression(pattern: $0.1)) }

    /// Lines that may match, each with its reason.
    static let allowed: [(file: String, contains: String, why: String)] = [
        // The PostgreSQL driver notes writes by the first keyword of any
        // statement it is handed (a driver's concern, not a plan's).
        ("QuarryPostgres/PostgresDatabase.swift", #"head.hasPrefix("INSERT")"#, "driver counts writes"),
        // Whether a lowered condition mentions an outer row alias, which
        // decides decorrelation. Not yet tracked as a part of the lowered
        // condition (it would take every lowering site to record the
        // aliases it reads): the one text search left, on a condition, never
        // on a planned statement.
        ("QuarrySQL/PredicateLowering+Decorrelation.swift", "sql.range(of: alias", "outer alias mention"),
    ]

    static func offenders(in text: String, file: String) -> [String] {
        var found: [String] = []
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.drop { $0 == " " }
            if trimmed.hasPrefix("//") { continue }
            let line = String(line)
            let range = NSRange(line.startIndex..., in: line)
            for (name, regex) in patterns where regex.firstMatch(in: line, range: range) != nil {
                if allowed.contains(where: { file.hasSuffix($0.file) && line.contains($0.contains) }) { continue }
                found.append("\(file):\(number + 1): \(name): \(trimmed)")
            }
        }
        return found
    }

    /// (line, caught): lines the code had before plans were parts, and
    /// lines that are not text searches on SQL.
    static let lines: [(String, Bool)] = [
        (#"guard let from = plan.sql.sql.range(of: " FROM ") else { return nil }"#, true),
        (#"let withoutOrder = rest.components(separatedBy: " ORDER BY ").first!"#, true),
        (#"let whereRange = keys.sql.range(of: " WHERE ")"#, true),
        (#"if !from.contains(" JOIN ") {"#, true),
        (#"var isTrue: Bool { fragment.sql == "TRUE" }"#, true),
        (#"let prefix = String(sql[..<sql.range(of: " VALUES ")!.upperBound])"#, true),
        (#"let words = text.split { !($0.isLetter || $0.isNumber || $0 == "_") }"#, true),
        (#"if let p = request.predicate { words += Printer.format(p).split(separator: " ") }"#, true),
        (#"expressions = usable ? select.split(separator: ", ", omittingEmptySubsequences: false) : []"#, true),
        (#"let path = sort.keyPath.split(separator: ".").map(String.init)"#, false),
        (#"sql.appendLiteral(" WHERE ")"#, false),
        (#"let keys = plan.statement.selecting(columns: [StoreMapping.primaryKey]).sql"#, false),
        (#"// cut at " FROM " (a comment)"#, false),
    ]

    @Test(arguments: lines)
    func theScanCatchesTextSearches(line: String, caught: Bool) {
        #expect(Self.offenders(in: line, file: "Example.swift").isEmpty != caught)
    }

    @Test func noSourceSearchesPlannedSQLText() throws {
        let (files, found) = try SourceScan.run { Self.offenders(in: $0, file: $1) }
        #expect(files > 100, "the scan found the sources")
        #expect(found.isEmpty, "planned SQL searched as text:\n\(found.joined(separator: "\n"))")
    }
}
