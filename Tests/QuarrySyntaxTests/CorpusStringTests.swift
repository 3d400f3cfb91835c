// The real-world corpus of format strings (../shared/corpus, see
// RealWorldCorpus): every literal string parses, except exactly the ones in
// `CorpusRejections.expected`, each of which Apple's parser rejects too
// (Grammar/corpus-rejections.md says why, string by string); and every
// string that parses prints back to a canonical form that parses to the same
// tree and prints the same again. A regression in the parser or the printer
// fails here, in CI, with the strings that changed.
//
// Without ../shared/corpus (a clone elsewhere) the tests are skipped, and say
// so on the console.
import Foundation
import Testing
@testable import QuarrySyntax

@Suite struct CorpusStringTests {
    static let records = RealWorldCorpus.records()

    @Test(.enabled(if: !RealWorldCorpus.available))
    func corpusAbsent() {
        print("SKIPPED CorpusStringTests: \(RealWorldCorpus.file.path) is absent; the real-world corpus is not checked")
    }

    /// Parses a record with its stand-in arguments, as `conformance.py corpus` does.
    static func parse(_ r: RealWorldCorpus.Record) -> Result<Either, Diagnostic> {
        do throws(Diagnostic) {
            if r.isExpression {
                return .success(.expression(try Parser.parseExpression(r.format, arguments: r.arguments, allowsExtraArguments: true)))
            }
            return .success(.predicate(try Parser.parsePredicate(r.format, arguments: r.arguments, allowsExtraArguments: true)))
        } catch {
            return .failure(error)
        }
    }

    enum Either: Equatable {
        case predicate(QueryPredicate), expression(QueryExpression)

        var printed: String {
            switch self {
            case .predicate(let p): return Printer.format(p)
            case .expression(let e): return Printer.format(e)
            }
        }

        func reparse(_ text: String) throws(Diagnostic) -> Either {
            switch self {
            case .predicate: return .predicate(try Parser.parsePredicate(text))
            case .expression: return .expression(try Parser.parseExpression(text))
            }
        }
    }

    @Test(.enabled(if: RealWorldCorpus.available))
    func everyStringParsesButTheListedRejections() throws {
        let records = Self.records
        try #require(records.count > 1000, "the corpus should hold over a thousand literal strings")
        var rejected: [String: String] = [:]
        for r in records {
            if case .failure(let d) = Self.parse(r) { rejected[r.format] = "\(d.code.rawValue) \(d.message)" }
        }
        let unexpected = rejected.keys.filter { CorpusRejections.expected[$0] == nil }.sorted()
        let nowAccepted = CorpusRejections.expected.keys.filter { rejected[$0] == nil }.sorted()
        for f in unexpected { Issue.record("rejected, and not a listed rejection: \(f) — \(rejected[f]!)") }
        for f in nowAccepted { Issue.record("listed as rejected but parses now (update the list and Grammar/corpus-rejections.md): \(f)") }
        let parsed = records.count - rejected.count
        print("corpus strings: parsed \(parsed) / \(records.count) (\(String(format: "%.1f", 100 * Double(parsed) / Double(records.count))) %)")
        #expect(Double(parsed) >= 0.99 * Double(records.count))
    }

    @Test(.enabled(if: RealWorldCorpus.available))
    func everyParsedStringPrintsBackToTheSameTree() throws {
        var parsed = 0
        var stable = 0
        for r in Self.records {
            guard case .success(let tree) = Self.parse(r) else { continue }
            parsed += 1
            let printed = tree.printed
            do throws(Diagnostic) {
                let again = try tree.reparse(printed)
                if again != tree {
                    Issue.record("\(r): prints as \(printed), which parses to another tree (prints \(again.printed))")
                } else if again.printed != printed {
                    Issue.record("\(r): prints as \(printed), which prints as \(again.printed)")
                } else {
                    stable += 1
                }
            } catch {
                Issue.record("\(r): prints as \(printed), which does not parse: \(error.code.rawValue) \(error.message)")
            }
        }
        print("corpus strings: print-stable \(stable) / \(parsed) parsed")
        #expect(parsed > 0)
    }

    /// The listed rejections and Grammar/corpus-rejections.md stay in step.
    @Test(.enabled(if: RealWorldCorpus.available))
    func everyListedRejectionIsExplained() throws {
        let doc = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Grammar/corpus-rejections.md")
        let text = try String(contentsOf: doc, encoding: .utf8)
        for (format, reason) in CorpusRejections.expected {
            #expect(!reason.isEmpty)
            #expect(text.contains("`\(format)`"), "Grammar/corpus-rejections.md does not list `\(format)`")
        }
    }
}
