// The work behind `quarry parse` and `quarry eval FORMAT`, as values that
// return their output and exit code, so tests run them without a process.

/// What a command printed and how it ended.
public struct CommandOutcome: Equatable, Sendable {
    public var stdout: String
    public var stderr: String
    public var exitCode: Int32
}

/// Exit codes of INTERFACES.md.
public enum ExitStatus {
    public static let success: Int32 = 0
    public static let statementFailed: Int32 = 1
    public static let usage: Int32 = 64
    public static let badInput: Int32 = 65
    public static let cannotOpen: Int32 = 66
    public static let internalError: Int32 = 70
}

/// Command-line values: valid JSON is read as JSON (so 30 is an integer and
/// '"30"' a string), anything else is a plain string.
public enum CommandLineValue {
    public static func parse(_ text: String) -> Value {
        if let json = try? JSON.parse(text) { return Value(json: json) }
        return .string(text)
    }
}

public struct ParseCommand {
    public var format: String
    public var arguments: [Value]?
    public var asExpression: Bool
    public var json: Bool
    public var jsonErrors: Bool

    public init(format: String, arguments: [Value]?, asExpression: Bool, json: Bool, jsonErrors: Bool = false) {
        self.format = format
        self.arguments = arguments
        self.asExpression = asExpression
        self.json = json
        self.jsonErrors = jsonErrors
    }

    public func run() -> CommandOutcome {
        let source = SourceText(format)
        do {
            if asExpression {
                let e = try Parser.parseExpression(source, arguments: arguments)
                return CommandOutcome(stdout: json ? e.json.serialized : Printer.format(e), stderr: "", exitCode: 0)
            }
            let p = try Parser.parsePredicate(source, arguments: arguments)
            return CommandOutcome(stdout: json ? p.json.serialized : Printer.format(p), stderr: "", exitCode: 0)
        } catch {
            let text = jsonErrors ? error.jsonObject(in: source) : error.rendered(in: source)
            return CommandOutcome(stdout: "", stderr: text, exitCode: ExitStatus.badInput)
        }
    }
}
