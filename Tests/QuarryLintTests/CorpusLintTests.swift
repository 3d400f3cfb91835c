// Lints the real-world corpus (../shared/corpus, see its README): every
// format string through the checks with its recorded argument types, and
// every corpus model's own predicates. Prints the findings per rule. The
// error-level findings on real code must each be a known, reviewed case
// (`CorpusLintTests.reviewed`): a new one fails the test until someone reads
// it and either fixes a false positive or adds it with the reason.
//
// The records carry no entity. Where the repository has models, a string
// is also checked against each entity whose properties contain every key
// the string starts with; a model finding is counted only when it holds for
// every such entity (so an ambiguous fit never produces one).
import Foundation
import QuarryLint
import QuarryModel
import Testing

enum CorpusFiles {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("../shared/corpus").standardizedFileURL
    static var strings: URL { directory.appendingPathComponent("real-world-predicates.jsonl") }
    static var available: Bool { FileManager.default.fileExists(atPath: strings.path) }
}

struct CorpusRecord: Decodable {
    struct Argument: Decodable {
        var type: String
        var value: CorpusValue?
    }
    var format: String
    var kind: String
    var args: [Argument]?
    var interpolated: Bool?
    var concatenated: Bool?
    var repo: String
    var path: String
    var line: Int
}

/// Just the literal values the records hold: strings, numbers, bools, null, arrays.
enum CorpusValue: Decodable {
    case string(String), number, bool, null, other
    init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() { self = .null }
        else if (try? c.decode(Bool.self)) != nil { self = .bool }
        else if (try? c.decode(Double.self)) != nil { self = .number }
        else if let s = try? c.decode(String.self) { self = .string(s) }
        else { self = .other }
    }
}

@Suite(.serialized) struct CorpusLintTests {
    /// Error-level findings on the corpus that were read by hand: format → why it is right.
    /// Each is text Apple's parser rejects too ("Unable to parse the format string").
    static let reviewed: [String: String] = [
        "%K": "objcio playground: a bare key path is no predicate; NSPredicate(format:) throws",
        "age": "Realm QueryTests 'column name only': meant to throw, and it does in NSPredicate",
        "sdlfjasdflj": "Realm QueryTests: gibberish, meant to throw",
        "age * 25": "Realm QueryTests 'invalid operator': an expression, no comparison; meant to throw",
        "age === 25": "Realm QueryTests: '===' is no operator; meant to throw",
        ",": "Realm QueryTests: a lone comma; meant to throw",
        "()": "Realm QueryTests: empty parentheses; meant to throw",
        "anyCol CONATINS 0": "Realm QueryTests: misspelt operator; meant to throw (hint: did you mean CONTAINS?)",
    ]

    static func shapes(_ record: CorpusRecord) -> [String] {
        return (record.args ?? []).map { a in
            switch (a.type, a.value) {
            case ("string", .string(let s)?), ("keypath", .string(let s)?): return "string:" + s
            // A number or bool "literal" in a record may have been `@7`, `@YES` or
            // `NSNumber(int: 1)` in the source (the collector keeps the literal
            // inside): objects, not scalars. So the %@-given-a-scalar check
            // (QL003) cannot be judged from the records; the snippet tests cover it.
            case ("number", .number?), ("bool", .bool?): return "other"
            case ("null", _): return "null"
            default: return "other"
            }
        }
    }

    @Test func corpusStringsAndModels() throws {
        guard CorpusFiles.available else {
            print("⚠️ SKIPPED CorpusLintTests: no corpus at \(CorpusFiles.directory.path)")
            return
        }
        let text = try String(contentsOf: CorpusFiles.strings, encoding: .utf8)
        let records = text.split(separator: "\n").compactMap { try? JSONDecoder().decode(CorpusRecord.self, from: Data($0.utf8)) }
        #expect(records.count > 1000)
        let models = Self.models()
        var perRule: [LintRule: Int] = [:]
        var errors: [(CorpusRecord, Finding)] = []
        var checkedWithEntity = 0
        for record in records {
            let where_ = "\(record.repo)/\(record.path):\(record.line)"
            if record.interpolated == true || record.concatenated == true {
                perRule[.notConstant, default: 0] += 1
                continue
            }
            var findings = Linter.lint(format: record.format, isExpression: record.kind == "expression",
                                       argumentShapes: Self.shapes(record), file: where_)
            if findings.isEmpty, let repoModels = models[record.repo] {
                let (fits, agreed) = Self.modelFindings(record, repoModels)
                if fits > 0 { checkedWithEntity += 1 }
                findings += agreed
            }
            for f in findings {
                perRule[f.rule, default: 0] += 1
                if f.severity == .error { errors.append((record, f)) }
            }
        }
        print("corpus: \(records.count) strings, \(checkedWithEntity) also checked against an entity of their repository's models")
        for rule in LintRule.allCases { print("  \(rule.rawValue) \(rule.summary): \(perRule[rule] ?? 0)") }
        for (record, f) in errors {
            let known = Self.reviewed[record.format] != nil
            print("  \(known ? "reviewed" : "NEW") \(f.rule.rawValue) col \(f.column) \(record.repo)/\(record.path):\(record.line): \(f.message) ← \(record.format)")
        }
        let unreviewed = errors.filter { Self.reviewed[$0.0.format] == nil }
        #expect(unreviewed.isEmpty, "error-level findings on real code that nobody has read: \(unreviewed.count)")

        // The models' own predicates (templates, fetched properties, derivations).
        var modelFindings: [Finding] = []
        for model in models.values.flatMap({ $0 }) { modelFindings += Linter.lintModel(model) }
        print("corpus models: \(models.values.map(\.count).reduce(0, +)) read; findings in their stored predicates: \(modelFindings.count)")
        for f in modelFindings { print("  \(f.rule.rawValue) \(f.file):\(f.line):\(f.column) \(f.message)") }
        #expect(modelFindings.filter { $0.severity == .error }.isEmpty)
    }

    /// Entities whose properties hold every key the string starts with, and
    /// the findings every one of them gives.
    static func modelFindings(_ record: CorpusRecord, _ models: [Model]) -> (Int, [Finding]) {
        let keys = firstKeys(record.format)
        guard !keys.isEmpty else { return (0, []) }
        var agreed: [String: Finding]?
        var fits = 0
        for model in models {
            for entity in model.entities {
                let names = Set(entity.allProperties(in: model).map(\.name))
                guard keys.allSatisfy(names.contains) else { continue }
                fits += 1
                let found = Linter.lint(format: record.format, isExpression: record.kind == "expression",
                                        argumentShapes: shapes(record), entity: entity.name, model: model,
                                        file: "\(record.repo)/\(record.path):\(record.line)")
                if ProcessInfo.processInfo.environment["QUARRY_LINT_DEBUG"] != nil, !found.isEmpty {
                    print("  candidate \(entity.name): \(found.map { "\($0.rule.rawValue) \($0.message)" }) ← \(record.format)")
                }
                let keyed = Dictionary(found.map { ("\($0.rule.rawValue)@\($0.column)", $0) }, uniquingKeysWith: { a, _ in a })
                agreed = agreed.map { $0.filter { keyed[$0.key] != nil } } ?? keyed
            }
        }
        return (fits, agreed.map { Array($0.values) } ?? [])
    }

    /// The identifiers that start key paths (not after a dot, not keywords, not in quotes).
    static func firstKeys(_ format: String) -> Set<String> {
        let keywords: Set<String> = ["AND", "OR", "NOT", "ANY", "ALL", "NONE", "SOME", "IN", "LIKE", "MATCHES", "CONTAINS",
                                     "BEGINSWITH", "ENDSWITH", "BETWEEN", "SUBQUERY", "FUNCTION", "TRUEPREDICATE",
                                     "FALSEPREDICATE", "NIL", "NULL", "YES", "NO", "TRUE", "FALSE", "SELF", "FIRST", "LAST",
                                     "SIZE", "CAST", "TERNARY", "UNION", "INTERSECT", "MINUS", "DISTINCT"]
        var keys: Set<String> = []
        let b = Array(format.utf8)
        var i = 0
        var quote: UInt8?
        while i < b.count {
            let c = b[i]
            if let q = quote { if c == UInt8(ascii: "\\") { i += 2; continue }; if c == q { quote = nil }; i += 1; continue }
            if c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") { quote = c; i += 1; continue }
            let isStart = (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c == 95
            if isStart {
                var e = i
                while e < b.count, (b[e] >= 48 && b[e] <= 57) || (b[e] >= 65 && b[e] <= 90) || (b[e] >= 97 && b[e] <= 122) || b[e] == 95 { e += 1 }
                let word = String(decoding: b[i..<e], as: UTF8.self)
                let previous = i > 0 ? b[i - 1] : 0
                let afterDotOrSigil = previous == UInt8(ascii: ".") || previous == UInt8(ascii: "$") || previous == UInt8(ascii: "%")
                    || previous == UInt8(ascii: "@") || previous == UInt8(ascii: "#")
                if !afterDotOrSigil, !keywords.contains(word.uppercased()), !(e < b.count && b[e] == UInt8(ascii: "(")) {
                    keys.insert(word)
                }
                i = e
                continue
            }
            i += 1
        }
        return keys
    }

    /// The corpus models by repository; unreadable ones are skipped (other tests cover the reader).
    static func models() -> [String: [Model]] {
        let sources = (try? String(contentsOf: CorpusFiles.directory.appendingPathComponent("models-sources.tsv"), encoding: .utf8)) ?? ""
        var out: [String: [Model]] = [:]
        for line in sources.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: "\t")
            guard fields.count >= 2 else { continue }
            let path = CorpusFiles.directory.appendingPathComponent("models").appendingPathComponent(String(fields[0])).path
            guard let xml = try? String(contentsOfFile: path, encoding: .utf8),
                  let model = try? ModelReader.read(xml: xml, file: path) else { continue }
            out[String(fields[1]), default: []].append(model)
        }
        return out
    }
}
