// Compares PostgreSQL's quarry_* functions with the evaluator on the shared
// case list (PostgresFunctionCases, plus the conformance strings in
// ../shared/conformance/peer-tests when present). Not a package target in git:
// to run it, add locally (do not commit)
//   .target(name: "QuarryPostgres", dependencies: ["QuarrySQL"]),
//   .executableTarget(name: "PGCompare", dependencies: ["QuarryPostgres", "QuarrySQL",
//                     "QuarryEvaluation"], path: "Scripts/PGCompare"),
// then `swift run PGCompare OUTDIR` writes OUTDIR/install.sql, load.sql,
// query.sql and expected.tsv; Scripts/pg-compare.sh runs psql and diffs.
import Foundation
import QuarryEvaluation
import QuarryPostgres
import QuarrySQL

let out = URL(fileURLWithPath: CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : "/tmp/pgcompare")
try? FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
func hex(_ s: String) -> String { s.utf8.map { String(format: "%02x", $0) }.joined() }
func write(_ name: String, _ text: String) { try! text.write(to: out.appendingPathComponent(name), atomically: true, encoding: .utf8) }

let peerDir = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/conformance/peer-tests")
let builtin = PostgresFunctionCases.strings().map(StoredText.composed)
var foldStrings = builtin
for s in PostgresFunctionCases.peerTestStrings(directory: peerDir) where !s.contains("\0") { foldStrings.append(StoredText.composed(s)) }
var seen = Set<String>(); foldStrings = foldStrings.filter { seen.insert($0).inserted }
let needles = PostgresFunctionCases.needles().filter { !$0.contains("\0") }
let likes = PostgresFunctionCases.likePatterns()
let regexes = PostgresFunctionCases.regexPatterns()

write("install.sql", "SET client_min_messages = warning;\n" + PostgresFunctions.installStatements.map { $0 + ";\n" }.joined())
var load = "CREATE TEMP TABLE subj(id int, s text COLLATE \"C\");\nCREATE TEMP TABLE needle(id int, n text COLLATE \"C\");\n"
load += "CREATE TEMP TABLE likep(id int, p text COLLATE \"C\");\nCREATE TEMP TABLE rx(id int, f int, re text COLLATE \"C\");\n"
func rows(_ table: String, _ items: [String]) -> String {
    "INSERT INTO \(table) VALUES " + items.enumerated().map { "(\($0.offset), convert_from('\\x\(hex($0.element))'::bytea, 'UTF8'))" }.joined(separator: ",\n") + ";\n"
}
load += rows("subj", foldStrings) + rows("needle", needles) + rows("likep", likes)
var expected: [String] = []
for (i, s) in foldStrings.enumerated() {
    for f in 1...3 {
        let folding = Folding(caseInsensitive: f & 1 != 0, diacriticInsensitive: f & 2 != 0)
        expected.append("fold\t\(f)\t\(i)\t\(hex(StoredText.composed(folding.fold(s))))")
    }
}
let nb = builtin.count
for (i, s) in foldStrings.prefix(nb).enumerated() {
    for f in 0...3 {
        let folding = Folding(caseInsensitive: f & 1 != 0, diacriticInsensitive: f & 2 != 0)
        let m = StringMatcher(folding: folding)
        for (j, n) in needles.enumerated() {
            let fn = folding.prepare(n)
            expected.append("begins\t\(f)\t\(i)\t\(j)\t\(m.beginsWith(s, fn) ? "t" : "f")")
            expected.append("ends\t\(f)\t\(i)\t\(j)\t\(m.endsWith(s, fn) ? "t" : "f")")
            expected.append("contains\t\(f)\t\(i)\t\(j)\t\(m.contains(s, fn) ? "t" : "f")")
        }
        for (j, p) in likes.enumerated() {
            expected.append("like\t\(f)\t\(i)\t\(j)\t\(LikePattern(p, folding: folding).matches(s) ? "t" : "f")")
        }
    }
}
var rxRows: [String] = []
var translated = 0
for (j, p) in regexes.enumerated() {
    for f in 0...3 {
        let folding = Folding(caseInsensitive: f & 1 != 0, diacriticInsensitive: f & 2 != 0)
        guard let re = PostgresRegex.translate(p, folding: folding) else { continue }
        translated += 1
        let id = j * 4 + f
        rxRows.append("(\(id), \(f), convert_from('\\x\(hex(re))'::bytea, 'UTF8'))")
        let compiled = try! CompiledRegex(p, folding: folding, timeLimit: 5, span: SourceSpan(start: 0, end: 0))
        for (i, s) in foldStrings.prefix(nb).enumerated() {
            expected.append("matches\t\(id)\t\(i)\t\((try? compiled.matches(s, span: SourceSpan(start: 0, end: 0))) == true ? "t" : "f")")
        }
    }
}
if !rxRows.isEmpty { load += "INSERT INTO rx VALUES " + rxRows.joined(separator: ",\n") + ";\n" }
write("load.sql", load)
write("expected.tsv", expected.sorted().joined(separator: "\n") + "\n")
write("query.sql", """
\\pset format unaligned
\\pset tuples_only on
\\pset fieldsep '\\t'
\\i \(out.path)/load.sql
SELECT 'fold', f::text, id::text, encode(convert_to(quarry_fold(s, f), 'UTF8'), 'hex'), '' FROM subj, generate_series(1,3) f
UNION ALL SELECT op, f::text, subj.id::text, needle.id::text, CASE WHEN r THEN 't' ELSE 'f' END FROM subj, needle, generate_series(0,3) f,
  LATERAL (VALUES ('begins', quarry_begins(s, n, f)), ('ends', quarry_ends(s, n, f)), ('contains', quarry_contains(s, n, f))) v(op, r)
  WHERE subj.id < \(nb)
UNION ALL SELECT 'like', f::text, subj.id::text, likep.id::text, CASE WHEN quarry_like(s, p, f) THEN 't' ELSE 'f' END FROM subj, likep, generate_series(0,3) f WHERE subj.id < \(nb)
UNION ALL SELECT 'matches', rx.id::text, subj.id::text, CASE WHEN (CASE WHEN rx.f = 0 THEN s ELSE quarry_fold(s, rx.f) END) ~ rx.re THEN 't' ELSE 'f' END, '' FROM subj, rx WHERE subj.id < \(nb);

""")
print("strings \(foldStrings.count) (builtin \(nb)), needles \(needles.count), like \(likes.count), regex translated \(translated), expected rows \(expected.count)")
