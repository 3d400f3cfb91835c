// The layout's fixed names are spelled only by the layout (issue 20): the
// key, entity and version columns (`_pk`, `_entity`, `_version`), a join
// table's `source` / `target` / `position`, and the store's own tables
// (`_quarry_…`) appear as text only in QuarrySQL's StoreMapping files;
// everything else asks StoreMapping for them (StoreMapping+Names.swift). This
// test scans Sources/ for such a spelling anywhere else, comments aside; the
// table of lines below checks the scan itself with lines the code used to
// have (caught) and lines that only look alike (not caught).
import Foundation
import Testing

@Suite("Layout names are spelled only by the layout")
struct LayoutNameGuardTests {
    /// The files that own the names.
    static func isOwner(_ file: String) -> Bool {
        file.hasPrefix("QuarrySQL/StoreMapping.swift") || file.hasPrefix("QuarrySQL/StoreMapping+")
    }

    /// Lines outside the owners that may spell a name, each with its reason.
    static let allowed: [(file: String, text: String, reason: String)] = [
        ("QuarryModel/StorageNames.swift", "_quarry_metadata",
         "the model checker's hint names the reserved prefix; QuarryModel cannot depend on QuarrySQL"),
        ("QuarryFixtures/Heuristics.swift", #""position""#,
         "a word matched against attribute names to pick a job-title generator, not a column"),
        ("QuarryCoreData/CoreDataMigration+Copy.swift", "_quarry_migrating_",
         "a Core Data migration's transient names for an app's old tables, renamed aside and dropped in the same transaction; not a table of Quarry's layout"),
    ]

    static let patterns: [(name: String, regex: NSRegularExpression)] = [
        ("key, entity or version column", try! NSRegularExpression(pattern: #"(?<![A-Za-z0-9])_(pk|entity|version)(?![A-Za-z0-9_])"#)),
        ("Quarry's own table", try! NSRegularExpression(pattern: #"_quarry_"#)),
        ("join-table column", try! NSRegularExpression(pattern: #"\\?["'](source|target|position)\\?["']"#)),
    ]

    static func offenders(in text: String, file: String) -> [String] {
        if isOwner(file) { return [] }
        var found: [String] = []
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.drop { $0 == " " }
            if trimmed.hasPrefix("//") { continue }
            let line = String(line)
            let range = NSRange(line.startIndex..., in: line)
            for (name, regex) in patterns where regex.firstMatch(in: line, range: range) != nil {
                if allowed.contains(where: { file == $0.file && line.contains($0.text) }) { continue }
                found.append("\(file):\(number + 1): \(name): \(trimmed)")
            }
        }
        return found
    }

    /// (line, caught): lines from before StoreMapping+Names.swift, and lines
    /// that only look alike.
    static let lines: [(String, Bool)] = [
        (#"let sql = "UPDATE \(SQLIdentifier.quoted(table)) SET \(assignments) WHERE \"_pk\" = ?""#, true),
        (##"func pk(_ alias: String) -> String { alias + #"."_pk""# }"##, true),
        (#"var columns = ["\"_entity\"", "\"_pk\""]"#, true),
        (#"return "SELECT \"_pk\" AS \"\(s)\", \(col) AS \"\(t)\" FROM \(q(current(table)))""#, true),
        (#"let ordered = mapping.joinTables.first { $0.table == join }?.ordered == true && source == "source""#, true),
        (#"case .joinTable(let oldTable, "source", "target")? = oldMap.storage(of: oldR.name, of: oldEntity),"#, true),
        (#"let columns = join.ordered ? ["source", "target", "position"] : ["source", "target"]"#, true),
        (#"+ (ordered ? "j.\"position\", " : "") + "t0.\"_pk\"""#, true),
        (#"if !tables.contains("_quarry_metadata") {"#, true),
        (##"var deleteList: String { dialect == .sqlite ? #"temp."_quarry_delete""# : #"pg_temp."_quarry_delete""# }"##, true),
        (#"_ = try query("SELECT setval(pg_get_serial_sequence(?, '_pk'), …)""#, true),
        (#"let versionColumn = "_version""#, true),
        // Look-alikes.
        ("// WHERE \"_pk\" = ? (a comment)", false),
        (#"let source = mapping.table(for: r.destination)"#, false),
        (#"var position: Int?"#, false),
        (#"try open(o.entity, header: [StoreMapping.primaryKey] + o.properties)"#, false),
        (#"let key_pk = 1"#, false),
        (#"map[path + ["destination"]] = tree.location(of: "destinationEntity", in: element)"#, false),
    ]

    @Test(arguments: lines)
    func theScanCatchesSpelledNames(line: String, caught: Bool) {
        #expect(Self.offenders(in: line, file: "Example.swift").isEmpty != caught)
    }

    @Test func noSourceSpellsALayoutName() throws {
        let (files, found) = try SourceScan.run { Self.offenders(in: $0, file: $1) }
        #expect(files > 100, "the scan found the sources")
        #expect(found.isEmpty, "layout names spelled outside QuarrySQL/StoreMapping*.swift:\n\(found.joined(separator: "\n"))")
    }
}
