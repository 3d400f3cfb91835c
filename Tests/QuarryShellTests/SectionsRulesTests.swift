// SECTIONS follows the library's fetched-results controller: it refuses what
// the controller refuses, with the codes `.watch` uses, exit 65 — and names
// sections and their index titles exactly as the controller does (nil is
// "", booleans are "0" and "1"), compared here section by section.
import Foundation
import Testing
@testable import QuarryShell

@Suite("SECTIONS follows the library")
struct SectionsRulesTests {
    /// (statement, code, message fragment)
    static let refused: [(String, String, String)] = [
        ("SECTIONS Employee BY department.name SORT BY name", "S011", "section '"),
        ("SECTIONS Employee BY department.name", "S011", "SECTIONS needs SORT BY"),
        ("SECTIONS Employee BY nme SORT BY name", "B002", "Employee has no attribute or relationship 'nme'"),
        ("SECTIONS Employee BY projects.name SORT BY name", "B003", "'projects' is a to-many relationship"),
        ("SECTIONS Employee BY department.name SORT BY projects", "B003", "'projects' is a to-many relationship"),
    ]

    @Test(arguments: refused)
    func refusesWhatTheLibraryRefuses(statement: String, code: String, fragment: String) {
        let t = runShell(.defaultStore, statement + ";")
        #expect(t.status == 65, "\(t)")
        #expect(t.out.isEmpty, "\(t)")
        #expect(t.err.contains("error[\(code)]") && t.err.contains(fragment), "\(t)")
        // `.watch` refuses it with the same code.
        let watched = runShell(.defaultStore, ".watch " + statement)
        #expect(watched.status == 65 && watched.err.contains("error[\(code)]"), "\(watched)")
    }

    @Test(arguments: [
        ("SECTIONS Employee BY age WHERE age == nil OR age >= 64 SORT BY age, name", "age", "age"),
        ("SECTIONS Employee BY active WHERE age >= 62 SORT BY active, name", "active", "active"),
        ("SECTIONS Employee BY department.name WHERE salary >= 140000 SORT BY department.name DESC, name", "department.name", "department.name"),
    ])
    func namesSectionsAsTheLibraryDoes(statement: String, keyPath: String, sortKey: String) throws {
        let session = ShellSession(output: { _ in }, errors: { _ in })
        guard case .sections(_, let shown) = try session.result(of: try StatementParser.parse(statement)) else {
            Issue.record("no sections")
            return
        }
        guard case .sections(let name, let keyPathName, let predicate, let sort) = try StatementParser.parse(statement) else { return }
        _ = keyPathName
        let request = FetchRequest(entity: name.text, predicate: predicate,
                                   sortDescriptors: sort.map { QuerySortDescriptor($0.keyPath, ascending: $0.ascending) })
        let controller = FetchedResultsController(fetchRequest: request, context: Context(store: try session.store()), sectionNameKeyPath: keyPath)
        try controller.performFetch()
        let library = try #require(controller.sections)
        #expect(shown.map(\.name) == library.map(\.name))
        #expect(shown.map(\.indexTitle) == library.map { $0.indexTitle ?? "" })
        #expect(shown.map(\.rows.rows.count) == library.map(\.numberOfObjects))
        #expect(shown.count > 1)
    }
}

@Suite("random() draws fresh values")
struct FreshRandomTests {
    func eval(seed: UInt64?) -> String {
        let capture = Capture()
        let session = ShellSession(mode: .csv, output: { capture.out += $0 }, errors: { capture.err += $0 })
        if let seed { session.randomSeed = seed }
        session.run("EVAL random(); EVAL random(); EVAL random:(1000000); EVAL randomn:(1000000);", stopOnError: true)
        return capture.out
    }

    @Test func freshUnlessSeeded() {
        let a = eval(seed: nil), b = eval(seed: nil)
        #expect(a != b, "two sessions drew \(a)")
        #expect(eval(seed: 7) == eval(seed: 7))
        #expect(eval(seed: 7) != eval(seed: 8))
        // Two statements of one session draw different values.
        let lines = eval(seed: 7).split(whereSeparator: \.isNewline)
        #expect(lines.count == 8 && lines[1] != lines[3], "\(lines)")
    }
}
