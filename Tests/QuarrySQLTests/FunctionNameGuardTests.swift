// Function names are spelled once, in QuarryBinding's enums: the quarry_* SQL
// functions in QuarrySQLFunction (which SQLite registers, PostgreSQL creates
// and the lowering calls) and the string functions uppercase: / lowercase: /
// length: in StringFunction (the evaluator's function table and registry,
// the key suffixes, the lowering's refusal). This test scans Sources/ for a
// name written as a literal anywhere else and lists the offenders; the table
// of lines below checks the scan itself (the lines the code used to have are
// caught). The patterns are built from the enums, so a new case is guarded too.
import Foundation
import QuarryBinding
import Testing

@Suite("Function names are spelled only in their enums")
struct FunctionNameGuardTests {
    /// The files that name the functions.
    static let owners = ["QuarryBinding/QuarrySQLFunction.swift", "QuarryBinding/StringFunction.swift"]

    /// `quarry_fold(` in SQL text, `"quarry_fold"` in a table (not the
    /// helpers `quarry_fold_c`, `quarry_graphemes`: PostgreSQL-internal).
    static let sqlNames: String = {
        let names: [String] = QuarrySQLFunction.allCases.map(\.rawValue)
        return "quarry_(" + names.joined(separator: "|") + #")\b(?!_)"#
    }()

    /// `"uppercase:"`, `"lowercaseString"` as string literals (not a bare
    /// `"length"`: it is also a field name of error reports).
    static let stringNames: String = {
        var names: [String] = []
        for f in StringFunction.allCases { names += [f.functionName] + f.methodNames }
        let quoted: [String] = names.filter { $0 != "length" }.map { NSRegularExpression.escapedPattern(for: $0) }
        return "\"(" + quoted.joined(separator: "|") + ")\""
    }()

    static let patterns: [(name: String, regex: NSRegularExpression)] = [
        ("SQL function name", try! NSRegularExpression(pattern: sqlNames)),
        ("string function name", try! NSRegularExpression(pattern: stringNames)),
    ]

    static func offenders(in text: String, file: String) -> [String] {
        if owners.contains(where: file.hasSuffix) { return [] }
        var found: [String] = []
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.drop { $0 == " " }
            if trimmed.hasPrefix("//") || trimmed.hasPrefix("///") { continue }
            let line = String(line)
            let range = NSRange(line.startIndex..., in: line)
            for (name, regex) in patterns where regex.firstMatch(in: line, range: range) != nil {
                found.append("\(file):\(number + 1): \(name): \(trimmed)")
            }
        }
        return found
    }

    /// (line, caught): lines the code had before the enums, and lines that
    /// only look alike.
    static let lines: [(String, Bool)] = [
        (#"static let names = ["quarry_fold", "quarry_like", "quarry_matches"]"#, true),
        (#"("quarry_begins", 3, { ctx, _, argv in SQLiteFunctions.needle(ctx, argv!, .begins) }),"#, true),
        (#"return Side(sql: folded ? "quarry_fold(" + f + ", \(flags(folding)))" : f)"#, true),
        ("    CREATE OR REPLACE FUNCTION quarry_fold(s text, flags integer) RETURNS text", true),
        ("      IF flags & 3 = 1 THEN RETURN quarry_fold_c(s); END IF;", false),
        ("          plane := quarry_code_plane(fs, fn);", false),
        (#"case .beginsWith: return "quarry_begins""#, true),
        (#"string("uppercase:") { .string($0.uppercased()) },"#, true),
        (#"string("length:") { .int(Int64($0.utf16.count)) }"#, true),
        (#"stringMethod("lowercaseString") { .string($0.lowercased()) }"#, true),
        (#"fields += [("line", .null), ("column", .null), ("length", .null)]"#, false),
        ("// quarry_fold(text, flags)  folded text (a comment)", false),
        (#"let name = "quarry_savepoint_\(depth)""#, false),
        (#"String(v, radix: 16, uppercase: true)"#, false),
        (#"QuarrySQLFunction.fold.call(f, "1")"#, false),
    ]

    @Test(arguments: lines)
    func theScanCatchesSpelledNames(line: String, caught: Bool) {
        #expect(Self.offenders(in: line, file: "Example.swift").isEmpty != caught)
    }

    @Test func noSourceSpellsAFunctionName() throws {
        let (files, found) = try SourceScan.run { Self.offenders(in: $0, file: $1) }
        #expect(files > 100, "the scan found the sources")
        #expect(found.isEmpty, "function names spelled outside their enums:\n\(found.joined(separator: "\n"))")
    }
}
