// Every error type of every module is a QuarryError: one report shape (code,
// message, place, hints) and Foundation's localizedDescription saying what
// description says. A source scan keeps it so for error types added later;
// a table pins the codes, which are the ones the shell prints.
import Foundation
import Testing
import QuarryCoreData
import QuarryFixtures
import QuarryLint
import QuarryModel
import QuarryPostgres
import QuarrySQLite
import QuarryStatements
@testable import QuarryStore
@testable import QuarryShell

@Suite struct QuarryErrorTests {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources")

    static func swiftFiles() throws -> [String] {
        let files = FileManager.default.enumerator(atPath: sources.path)!.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }
        return try files.map { try String(contentsOf: sources.appendingPathComponent($0), encoding: .utf8) }
    }

    @Test func everyPublicErrorTypeIsAQuarryError() throws {
        let texts = try Self.swiftFiles()
        let declared = try Regex(#"public (?:struct|enum|final class|class) (\w+)(?:<[^>]*>)?: [^{]*\bError\b"#)
        let adopted = try Regex(#"extension (?:\w+\.)?(\w+): QuarryError"#)
        var errorTypes: Set<String> = [], conforming: Set<String> = []
        for text in texts {
            for m in text.matches(of: declared) { errorTypes.insert(String(m.output[1].substring!)) }
            for m in text.matches(of: adopted) { conforming.insert(String(m.output[1].substring!)) }
        }
        #expect(errorTypes.count >= 19, "the scan found \(errorTypes.sorted())")
        #expect(errorTypes.subtracting(conforming).isEmpty, "not QuarryError: \(errorTypes.subtracting(conforming).sorted())")
    }

    static let errors: [(any Error, String)] = [
        (Diagnostic(.unknownKeyInModel, "no key", at: .synthesized), "B002"),
        (StoreError.unknownEntity("X", suggestion: nil), "B001"),
        (StoreError.unknownKey("k", entity: "E", suggestion: "key"), "B002"),
        (StoreError.typeMismatch(key: "k", entity: "E", expected: "string", got: "integer"), "B004"),
        (StoreError.transientAttribute(key: "k", entity: "E"), "B007"),
        (StoreError.abstractEntity("Person", concrete: ["Student"]), "A006"),
        (StoreError.missingValue(key: "k", entity: "E"), "R006"),
        (StoreError.deleteDenied(entity: "E", relationship: "r", related: 2), "R006"),
        (StoreError.readOnly(location: "a.sqlite", reason: "Core Data store"), "R004"),
        (StoreError.migrationNeeded(location: "a.sqlite", changes: ["added E.x"]), "R002"),
        (ContextError.unknownKey("k", entity: "E", suggestion: nil), "B002"),
        (ContextError.batchSizeRequired(0), "A006"),
        (ValidationError(failures: []), "R006"),
        (MigrationError.notInferable(location: "a", refusals: ["x"]), "R002"),
        (ModelError(.unknownEntity, "no entity 'X'", file: "m.yaml", line: 3, column: 5, suggestion: "Y"), "R005"),
        (FixtureError(.invalidCount, "bad count"), "A006"),
        (SQLiteError(code: 19, message: "UNIQUE constraint failed", kind: .constraint), "R007"),
        (SQLiteError(code: 9, message: "interrupted", kind: .interrupted), "R003"),
        (PostgresDatabaseError(.server, "duplicate key", sqlState: "23505"), "R007"),
        (PostgresDatabaseError(.canceled, "canceling statement"), "R003"),
        (PostgresDatabaseError(.connectionFailed, "refused", hint: "is the server running?"), "R002"),
        (CoreDataError(.noModel, "no model", hint: "pass --model"), "R005"),
        (StatementError(.expectedEntity, "expected an entity", at: .synthesized), "S002"),
        (ShellError(.notSupported, "no"), "R004"),
        (LintError.usage("bad flag"), "A006"),
    ]

    @Test(arguments: errors.indices)
    func reportsCarryTheShellsCodes(index: Int) throws {
        let (error, code) = Self.errors[index]
        let q = try #require(error as? any QuarryError, "\(type(of: error)) is not a QuarryError")
        #expect(q.report.code == code, "\(type(of: error)): \(q.report)")
        #expect(!q.report.message.isEmpty)
        #expect(error.localizedDescription == q.description)
    }

    @Test func reportsKeepPlacesAndHints() throws {
        let model = ModelError(.unknownEntity, "no entity 'X'", file: "m.yaml", line: 3, column: 5, suggestion: "Y").report
        #expect(model.file == "m.yaml" && model.line == 3 && model.column == 5 && model.hints == ["did you mean 'Y'?"])
        #expect(model.description == "error[R005]: m.yaml:3:5: no entity 'X'\nhelp: did you mean 'Y'?")
        let parse = try #require(error(of: { _ = try Parser.parsePredicate("a == ") }))
        #expect(parse.report.code == "P012" && parse.report.span?.start == 5)
        #expect(PostgresDatabaseError(.connectionFailed, "refused", hint: "is the server running?").report.hints == ["is the server running?"])
    }

    func error(of body: () throws -> Void) -> (any QuarryError)? {
        do { try body(); return nil } catch { return error as? any QuarryError }
    }
}
