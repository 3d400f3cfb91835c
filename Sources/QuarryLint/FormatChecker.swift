// The checks on one format string, wherever it came from (a source file, a
// model, the corpus): does it parse, do the arguments fit the specifiers,
// and — with an entity from a model — do its key paths and operators fit
// the model (ModelChecker); plus the style hints (StyleChecker). Findings
// are placed in the decoded string or at an argument; the caller maps those
// places to its file.

import QuarryModel
import QuarrySyntax

/// Where a finding points before it is placed in a file.
enum FindingPlace: Sendable, Equatable {
    /// A UTF-8 byte offset into the decoded format string.
    case format(Int)
    /// A byte offset into the source file (an argument, the call).
    case source(Int)
}

struct RawFinding: Sendable {
    var rule: LintRule
    var message: String
    var hints: [String] = []
    var place: FindingPlace
}

/// A specifier in the format string and the argument it takes.
struct SpecifierUse: Sendable {
    var spec: FormatSpecifier
    var text: String
    /// Byte range in the decoded string.
    var span: SourceSpan
    /// 0-based index of its argument.
    var argument: Int
}

enum FormatKind: Sendable { case predicate, expression }

struct FormatChecker {
    var text: String
    var kind: FormatKind
    /// The call's arguments, nil when they cannot be counted.
    var arguments: [CallArgument]?
    var entity: Entity?
    var model: Model?

    func check() -> [RawFinding] {
        let source = SourceText(text)
        var tree: QueryPredicate?
        var expression: QueryExpression?
        do throws(Diagnostic) {
            switch kind {
            case .predicate: tree = try Parser.parsePredicate(source)
            case .expression: expression = try Parser.parseExpression(source)
            }
        } catch {
            return [parseFailure(error)]
        }
        var findings: [RawFinding] = []
        let uses = specifiers(source)
        if let arguments { findings += checkArguments(uses, arguments) }
        if let tree { findings += StyleChecker.check(tree, uses: uses, arguments: arguments) }
        if let entity, let model {
            var checker = ModelChecker(model: model, text: Array(text.utf8), uses: uses, arguments: arguments)
            if let tree { checker.check(tree, entity: entity) }
            if let expression { checker.check(expression, scope: ModelChecker.Scope(entity: entity)) }
            findings += checker.findings
        }
        return findings
    }

    /// QL001, or QL008 for a custom-selector predicate (`self isKindOfClass: %@`),
    /// which Apple parses but no SQLite fetch can run and Quarry does not read.
    private func parseFailure(_ d: Diagnostic) -> RawFinding {
        if Self.looksLikeCustomSelector(text) {
            return RawFinding(rule: .sqliteUnsupported,
                              message: "custom selector predicate: Core Data cannot run it in a SQLite fetch, and it is not checked further",
                              hints: ["filter in memory, or write the condition with operators"], place: .format(d.span.start))
        }
        return RawFinding(rule: .parseError, message: d.message, hints: d.hints, place: .format(d.span.start))
    }

    /// An identifier directly followed by `:` (not `:=`) outside quotes.
    static func looksLikeCustomSelector(_ text: String) -> Bool {
        let b = Array(text.utf8)
        var quote: UInt8?
        for i in b.indices {
            if let q = quote { if b[i] == q { quote = nil }; continue }
            if b[i] == UInt8(ascii: "\"") || b[i] == UInt8(ascii: "'") { quote = b[i]; continue }
            if b[i] == UInt8(ascii: ":"), i > 0, Scanner.isIdentifierByte(b[i - 1]),
               i + 1 >= b.count || b[i + 1] != UInt8(ascii: "=") {
                return true
            }
        }
        return false
    }

    /// The specifiers that take arguments, in order, with the argument each takes.
    func specifiers(_ source: SourceText) -> [SpecifierUse] {
        guard let tokens = try? Lexer.tokenize(source).tokens else { return [] }
        var uses: [SpecifierUse] = []
        var next = 0
        for token in tokens {
            guard case .specifier(let spec) = token.kind else { continue }
            let text = String(decoding: source.utf8[token.span.start..<token.span.end], as: UTF8.self)
            let index: Int
            if let position = spec.position { index = position - 1 } else { index = next; next += 1 }
            uses.append(SpecifierUse(spec: spec, text: text, span: token.span, argument: index))
        }
        return uses
    }

    /// QL002 and QL003.
    func checkArguments(_ uses: [SpecifierUse], _ arguments: [CallArgument]) -> [RawFinding] {
        var findings: [RawFinding] = []
        let needed = (uses.map(\.argument).max() ?? -1) + 1
        let noun = { (n: Int) in n == 1 ? "1 argument" : "\(n) arguments" }
        if arguments.count < needed, let missing = uses.first(where: { $0.argument >= arguments.count }) {
            findings.append(RawFinding(rule: .argumentCount,
                                       message: "\(missing.text) has no argument: the string takes \(noun(needed)), the call passes \(arguments.count)",
                                       hints: ["pass one value per specifier, in order"], place: .format(missing.span.start)))
        } else if arguments.count > needed {
            findings.append(RawFinding(rule: .argumentCount,
                                       message: "the call passes \(noun(arguments.count)), but the string takes \(needed)",
                                       hints: needed == 0 ? ["a value written into the string needs a %@ to be inserted"]
                                           : ["remove the extra argument or add its specifier"],
                                       place: .source(arguments[needed].start)))
        }
        for use in uses where use.argument < arguments.count {
            let argument = arguments[use.argument]
            let misfit: String?
            switch (use.spec.category, argument.shape) {
            case (.integer, .string), (.floatingPoint, .string):
                misfit = "\(use.text) needs a number, but the argument is a string literal"
            case (.object, .number), (.object, .bool):
                misfit = "\(use.text) needs an object, but the argument is a scalar literal (read as a pointer: a crash)"
            case (.keyPath, .number), (.keyPath, .bool), (.keyPath, .nilLiteral):
                misfit = "%K needs a key path string, but the argument is not one"
            default:
                misfit = nil
            }
            if let misfit {
                let hint: String
                switch use.spec.category {
                case .keyPath: hint = "pass the key as a string or #keyPath(…); use %@ for a value"
                case .object: hint = "use %d / %f for a number, or pass an NSNumber (@5, NSNumber(value:))"
                default: hint = "use %@ for a string"
                }
                findings.append(RawFinding(rule: .argumentType, message: misfit, hints: [hint], place: .source(argument.start)))
            }
        }
        return findings
    }
}
