// `quarry eval --jsonl`: one JSON request per input line, one JSON answer per
// line, in order, never stopping on a bad case. Conformance suites and other
// tools drive Quarry through it (protocol in INTERFACES.md).
//
// Requests: {"id", "kind": "parse"|"predicate"|"expression", "format",
// "as": "expression" (parse only), "args", "vars", "object" | "objects"}.
// Answers: {"id", "ok": true, "format", "result"?} or
// {"id", "ok": false, "error": {"code", "message", "line", "column", "stage"}}.

/// Answers machine-interface requests.
public struct MachineInterface {
    public var options: EvaluationOptions

    public init(options: EvaluationOptions = .init()) {
        self.options = options
    }

    /// Answers one request line with one response line (no newline).
    public func answer(line: String) -> String { answerJSON(line: line).serialized }

    /// The answer as JSON, before it is written (so that `quarry eval`
    /// prints the result without reading it back, which would round
    /// exact decimals through Double).
    public func answerJSON(line: String) -> JSON {
        // Every line gets an answer, a blank one too: a client counting
        // answers against requests must never wait for one that won't come.
        if line.allSatisfy(\.isWhitespace) {
            return failure(id: .null, code: .invalidRequest, message: "empty request line; a request is a JSON object",
                           stage: .input)
        }
        let request: JSON
        do {
            request = try JSON.parse(line)
        } catch {
            return failure(id: .null, code: .invalidRequest, message: error.description, stage: .input)
        }
        let id = request["id"] ?? .null
        guard case .object = request else {
            return failure(id: id, code: .invalidRequest, message: "a request is a JSON object", stage: .input)
        }
        guard let format = request["format"]?.stringValue else {
            return failure(id: id, code: .invalidRequest, message: "the request has no \"format\" string", stage: .input)
        }
        let kind = request["kind"]?.stringValue ?? "predicate"
        var arguments: [Value]?
        if let args = request["args"] {
            guard case .array(let items) = args else {
                return failure(id: id, code: .invalidRequest, message: "\"args\" must be an array", stage: .input)
            }
            arguments = items.map(Value.init(json:))
        }
        let source = SourceText(format)
        do {
            switch kind {
            case "parse":
                let printed: String
                if request["as"]?.stringValue == "expression" {
                    printed = Printer.format(try Parser.parseExpression(source, arguments: arguments, allowsExtraArguments: true))
                } else {
                    printed = Printer.format(try Parser.parsePredicate(source, arguments: arguments, allowsExtraArguments: true))
                }
                return success(id: id, format: printed, result: nil)
            case "predicate", "expression":
                let (printed, result) = try evaluate(kind: kind, source: source, arguments: arguments ?? [], request: request)
                return success(id: id, format: printed, result: result)
            default:
                return failure(id: id, code: .invalidRequest, message: "unknown kind '\(kind)'; use parse, predicate or expression",
                               stage: .input)
            }
        } catch {
            return failure(id: id, diagnostic: error, source: source)
        }
    }

    func success(id: JSON, format: String, result: JSON?) -> JSON {
        var fields: [(String, JSON)] = [("id", id), ("ok", .bool(true))]
        if let result { fields.append(("result", result)) }
        fields.append(("format", .string(format)))
        return JSON.object(fields)
    }

    func failure(id: JSON, diagnostic: Diagnostic, source: SourceText) -> JSON {
        let loc = diagnostic.location(in: source)
        var error: [(String, JSON)] = [
            ("code", .string(diagnostic.code.rawValue)),
            ("message", .string(diagnostic.message)),
            ("line", .int(Int64(loc.line))),
            ("column", .int(Int64(loc.column))),
            ("stage", .string(diagnostic.stage.rawValue)),
        ]
        if !diagnostic.hints.isEmpty { error.append(("hints", .array(diagnostic.hints.map(JSON.string)))) }
        return JSON.object([("id", id), ("ok", .bool(false)), ("error", .object(error))])
    }

    func failure(id: JSON, code: DiagnosticCode, message: String, stage: DiagnosticStage) -> JSON {
        let error: [(String, JSON)] = [("code", .string(code.rawValue)), ("message", .string(message)),
                                       ("line", .int(1)), ("column", .int(1)), ("stage", .string(stage.rawValue))]
        return JSON.object([("id", id), ("ok", .bool(false)), ("error", .object(error))])
    }
}
