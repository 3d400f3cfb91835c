// `quarry eval FORMAT [--object JSON] [--arg V]... [--var NAME=V]...`: evaluate
// once and print the result as JSON (a predicate prints true or false).

public struct EvalCommand {
    public var format: String
    public var asExpression: Bool
    public var object: String?
    public var arguments: [Value]
    public var variables: [String]

    public init(format: String, asExpression: Bool, object: String?, arguments: [Value], variables: [String]) {
        self.format = format
        self.asExpression = asExpression
        self.object = object
        self.arguments = arguments
        self.variables = variables
    }

    public func run() -> CommandOutcome {
        var request: [(String, JSON)] = [("kind", .string(asExpression ? "expression" : "predicate")),
                                         ("format", .string(format)), ("args", .array(arguments.map(\.json)))]
        if let object {
            guard let json = try? JSON.parse(object) else {
                return CommandOutcome(stdout: "", stderr: "error: --object is not valid JSON", exitCode: ExitStatus.usage)
            }
            request.append(("object", json))
        }
        var vars: [(String, JSON)] = []
        for binding in variables {
            let parts = binding.split(separator: "=", maxSplits: 1).map(String.init)
            vars.append((parts[0].hasPrefix("$") ? String(parts[0].dropFirst()) : parts[0],
                         CommandLineValue.parse(parts.count > 1 ? parts[1] : "").json))
        }
        request.append(("vars", .object(vars)))
        let source = SourceText(format)
        let answer = MachineInterface().answerJSON(line: JSON.object(request).serialized)
        if answer["ok"] == .bool(true) {
            return CommandOutcome(stdout: answer["result"]?.serialized ?? "null", stderr: "", exitCode: 0)
        }
        // Re-render the located error for a person.
        do {
            if asExpression { _ = try Parser.parseExpression(source, arguments: arguments) }
            else { _ = try Parser.parsePredicate(source, arguments: arguments) }
        } catch {
            return CommandOutcome(stdout: "", stderr: error.rendered(in: source), exitCode: ExitStatus.badInput)
        }
        let message = answer["error"]?["message"]?.stringValue ?? "evaluation failed"
        let code = answer["error"]?["code"]?.stringValue ?? "E000"
        let line = answer["error"]?["line"].flatMap { if case .int(let i) = $0 { return Int(i) } else { return nil } } ?? 1
        let column = answer["error"]?["column"].flatMap { if case .int(let i) = $0 { return Int(i) } else { return nil } } ?? 1
        return CommandOutcome(stdout: "", stderr: "\(line):\(column): error[\(code)]: \(message)", exitCode: ExitStatus.statementFailed)
    }
}
