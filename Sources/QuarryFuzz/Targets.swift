// What each fuzz target feeds its input to, and the seeds and tokens it
// starts from. A target returns normally for any input, accepted or refused
// with an error; it crashes (fatalError) only when an invariant breaks, such
// as the printer's round trip, so that the run reports the input.
import Foundation
import QuarryFixtures
import QuarryShell

struct FuzzTarget: Sendable {
    let name: String
    /// Seed texts, from files under the package root and ../shared.
    let seeds: @Sendable (Seeds) -> [String]
    let tokens: [String]
    let maximumLength: Int
    let run: @Sendable (String) -> Void
}

/// Reads seed files; a missing folder gives no seeds (said on stderr).
struct Seeds: Sendable {
    let root: String

    func files(_ folder: String, suffix: String) -> [String] {
        let path = root + "/" + folder
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else {
            FileHandle.standardError.write(Data("note: no seeds from \(path) (absent)\n".utf8))
            return []
        }
        return names.filter { $0.hasSuffix(suffix) }.sorted().compactMap { try? String(contentsOfFile: path + "/" + $0, encoding: .utf8) }
    }

    /// The `format` of every JSON Lines request in a folder's .jsonl files.
    func formats(_ folder: String) -> [String] {
        files(folder, suffix: ".jsonl").flatMap { $0.split(separator: "\n") }.compactMap {
            (try? JSON.parse(String($0)))?["format"]?.stringValue
        }
    }

    func lines(_ folder: String, suffix: String) -> [String] {
        files(folder, suffix: suffix).flatMap { $0.split(separator: "\n").map(String.init) }
    }
}

enum Targets {
    static let predicateTokens = [
        " AND ", " OR ", "NOT ", "(", ")", "{", "}", "[", "]", "%@", "%K", "%d", "%1$@", "$x", "SUBQUERY(a, $x, $x == 1)", "ANY ", "ALL ",
        "NONE ", " IN ", " BETWEEN ", " LIKE[cd] ", " MATCHES ", " CONTAINS[c] ", " BEGINSWITH ", "@count", "@sum.", "@avg.", "SELF",
        "FUNCTION(", "TERNARY(", "CAST(", ", 'NSDate')", "\"\\u", "'", "\"", "#", "#size", "==", "!=", "<=", ".", ",", "*", "?",
        "1e999", "-", "**", "/", "now()", "FIRST", "LAST", "SIZE", "nil", "YES", ":=", "UNION", "\\", "é", "e\u{301}", "İ", "ß",
        "0x", "0b", "0o", "TRUEPREDICATE", "UTI-CONFORMS-TO", "sum:(", "distinct:(", "bitwiseXor:with:(", "@distinctUnionOfArrays.",
    ]
    static let arguments: [Value] = [
        .int(1), .string("name"), .array([.int(1), .string("a"), .null]), .double(2.5), .string("a*b?"), .null,
        .dictionary(["k": .int(1)]), .int(Int64.max), .int(Int64.min), .string("\u{FFFD}"), .bool(true), .decimal(Decimal(string: "1e127")!),
    ]
    static let object: Value = .dictionary([
        "name": .string("Zoë Müller"), "age": .int(42), "salary": .int(Int64.max), "ratio": .double(-0.0),
        "items": .array([.int(1), .int(2), .string("x"), .null, .array([.int(3)])]), "tags": .set([.string("a"), .string("B")]),
        "department": .dictionary(["name": .string("Dept 7"), "budget": .decimal(Decimal(string: "1e20")!)]),
        "date": .date(-1e12), "data": .data([0, 255]),
    ])

    static let all: [FuzzTarget] = [
        FuzzTarget(name: "parser", seeds: seedFormats, tokens: predicateTokens, maximumLength: 4_096) { text in
            // Lexer, parser and printer: whatever parses prints to text that
            // parses to the same tree (printed the same).
            for asExpression in [false, true] {
                let printed: String
                if asExpression {
                    guard let tree = try? Parser.parseExpression(SourceText(text)) else { continue }
                    printed = Printer.format(tree)
                    guard let again = try? Parser.parseExpression(SourceText(printed)) else {
                        fatalError("round trip: the printed expression does not parse: \(printed)")
                    }
                    if Printer.format(again) != printed { fatalError("round trip: \(printed) reprints as \(Printer.format(again))") }
                } else {
                    guard let tree = try? Parser.parsePredicate(SourceText(text)) else { continue }
                    printed = Printer.format(tree)
                    guard let again = try? Parser.parsePredicate(SourceText(printed)) else {
                        fatalError("round trip: the printed predicate does not parse: \(printed)")
                    }
                    if Printer.format(again) != printed { fatalError("round trip: \(printed) reprints as \(Printer.format(again))") }
                }
            }
        },
        FuzzTarget(name: "evaluator", seeds: seedFormats, tokens: predicateTokens, maximumLength: 4_096) { text in
            let options = EvaluationOptions()
            if let tree = try? Parser.parsePredicate(SourceText(text), arguments: arguments, allowsExtraArguments: true),
               let compiled = try? Evaluator.compile(tree, options: options) {
                _ = try? compiled.evaluate(object, variables: ["x": .int(1)])
            }
            if let tree = try? Parser.parseExpression(SourceText(text), arguments: arguments, allowsExtraArguments: true),
               let compiled = try? Evaluator.compile(tree, options: options) {
                _ = try? compiled.evaluate(object, variables: ["x": .int(1)])
            }
        },
        FuzzTarget(name: "statements", seeds: { s in
            s.lines("Examples/Queries", suffix: ".qry").filter { !$0.hasPrefix("--") && !$0.isEmpty } + seedFormats(s).prefix(300).map { "FETCH Employee WHERE " + $0 }
        }, tokens: predicateTokens + ["FETCH ", "COUNT ", "UPDATE ", " SET ", " WHERE ", " ORDER BY ", " LIMIT ", "DELETE ", "INSERT ",
                                      "EXPLAIN ", " GROUP BY ", " HAVING ", ".mode ", ";"], maximumLength: 4_096) { text in
            _ = try? StatementParser.parse(text, arguments: arguments)
        },
        FuzzTarget(name: "json", seeds: { s in
            s.lines("../shared/conformance/peer-tests", suffix: ".jsonl") + s.lines("Examples/Predicates", suffix: ".jsonl")
        }, tokens: ["{", "}", "[", "]", "\"", "\\u", "\\ud800", "\\udc00", "\\ud83d\\ude00", "{\"$date\":", "{\"$decimal\":\"1e127\"}",
                    "{\"$set\":[", "{\"$data\":\"", "1e400", "-0", ",", ":", "null", "true", "\"kind\":\"expression\""],
                   maximumLength: 16_384) { text in
            // The machine interface end to end, and the reader's own round trip.
            _ = MachineInterface().answer(line: text)
            if let json = try? JSON.parse(text) {
                let again = Value(json: json).json.serialized
                if (try? JSON.parse(again)) == nil { fatalError("JSON round trip: \(again) does not parse") }
            }
        },
        FuzzTarget(name: "yaml-model", seeds: { s in
            s.files("Examples/Models", suffix: ".yaml") + s.files("Examples/Models", suffix: ".json")
        }, tokens: ["\n", "  ", "- ", ": ", "[", "]", "{", "}", "entities:", "attributes:", "relationships:", "parent: ", "to: ",
                    "inverse: ", "many: true", "type: ", "string", "integer64", "decimal", "&a ", "*a", "!!str ", "'", "\"", "#", "_quarry",
                    "\"\\0\"", "fetchRequests:", "predicate: "], maximumLength: 65_536) { text in
            _ = try? ModelReader.read(yaml: text)
            // A store's saved JSON model is read without libyaml: it must
            // read exactly as the YAML parser reads it, errors and all.
            let composed = Result { () throws(ModelError) in try ModelReader.read(json: text) }
            let saved = Result { () throws(ModelError) in try ModelReader.read(savedJSON: text, file: "<json>") }
            switch (composed, saved) {
            case (.success(let a), .success(let b)) where a == b: break
            case (.failure(let a), .failure(let b)) where a.description == b.description: break
            default: fatalError("a saved JSON model reads differently without libyaml: \(composed) against \(saved)")
            }
        },
        FuzzTarget(name: "xml-model", seeds: { s in
            s.files("../shared/corpus/models", suffix: ".xml").prefix(100).map { $0 }
                + s.files("Examples/Models/Company.xcdatamodeld/Company.xcdatamodel", suffix: "contents")
        }, tokens: ["<entity name=\"E\">", "</entity>", "<attribute name=\"a\" attributeType=\"String\"/>", "<relationship ",
                    "destinationEntity=\"", "inverseName=\"", "&amp;", "&#0;", "<!DOCTYPE x [<!ENTITY e \"eee\">]>", "&e;", "<![CDATA[",
                    "\"", "<", ">", "/>"], maximumLength: 262_144) { text in
            _ = try? ModelReader.read(xml: text)
        },
        FuzzTarget(name: "factories", seeds: { s in s.files("Examples/Fixtures", suffix: ".yaml") },
                   tokens: ["\n", "  ", "- ", ": ", "[", "]", "{", "}", "count: ", "per: ", "range: [", "values: [", "regex: ", "weights: ",
                            "distribution: ", "'", "\"", "*a", "&a "], maximumLength: 65_536) { text in
            _ = try? FactoriesReader.read(yaml: text)
        },
    ]

    static func seedFormats(_ s: Seeds) -> [String] {
        s.formats("../shared/conformance/peer-tests") + s.formats("../shared/corpus") + s.formats("Examples/Predicates")
    }
}
