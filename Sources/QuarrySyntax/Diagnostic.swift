// Diagnostics: every rejected input becomes a `Diagnostic` with a stable code,
// a span, a message and optional hints. Rendering (file:line:col, the source
// line, a caret under the offending text) is in Diagnostic+Rendering.swift.
//
// Codes are part of the contract (tests, `--error-format json`, Grammar/
// examples): never renumber one; add new ones at the end of their group.

/// Which stage of the pipeline rejected the input.
public enum DiagnosticStage: String, Sendable, Codable {
    case parse, bind, evaluate, input
}

/// Stable error codes. `L` lexical, `P` grammar, `A` arguments and variables,
/// `B` binding against a model, `E` evaluation.
public enum DiagnosticCode: String, Sendable, CaseIterable, Codable {
    // Lexical
    case unterminatedString = "L001"
    case unknownEscape = "L002"
    case unexpectedCharacter = "L003"
    case malformedNumber = "L004"
    case malformedSpecifier = "L005"
    case emptyVariableName = "L006"
    case malformedKeywordEscape = "L007"
    case invalidUTF8 = "L008"
    // Grammar
    case emptyInput = "P001"
    case expectedComparison = "P002"
    case unexpectedTrailingInput = "P003"
    case expectedClosingParenthesis = "P004"
    case expectedClosingBrace = "P005"
    case expectedClosingBracket = "P006"
    case malformedOptions = "P007"
    case nestingTooDeep = "P008"
    case inputTooLarge = "P009"
    case expectedVariable = "P010"
    case expectedComma = "P011"
    case expectedValue = "P012"
    case expectedKey = "P013"
    case reservedWordAsKey = "P014"
    case expectedIndex = "P015"
    case predicateWhereValueExpected = "P016"
    case unsupportedComment = "P017"
    case expectedFunctionName = "P018"
    case wrongArgumentCount = "P019"
    // Arguments and variables
    case missingArgument = "A001"
    case extraArgument = "A002"
    case keyPathArgumentNotString = "A003"
    case argumentTypeMismatch = "A004"
    case missingVariable = "A005"
    case invalidRequest = "A006"
    // Binding against a model
    case unknownEntity = "B001"
    case unknownKeyInModel = "B002"
    case toManyWithoutQuantifier = "B003"
    case bindTypeMismatch = "B004"
    case keyAfterAttribute = "B005"
    case notAToManyKeyPath = "B006"
    /// A transient attribute where SQL would need it: it has no column.
    case transientInStore = "B007"
    // Evaluation
    case typeMismatch = "E001"
    case unknownFunction = "E002"
    case divisionByZero = "E003"
    case badFunctionArgument = "E004"
    case invalidRegularExpression = "E005"
    case regularExpressionTooComplex = "E006"
    case unsupportedOperation = "E007"
    case indexOutOfRange = "E008"
    case unknownKey = "E009"
}

/// A located error with a stable code and optional hints.
public struct Diagnostic: Error, Sendable, Equatable, CustomStringConvertible {
    public var code: DiagnosticCode
    public var message: String
    public var span: SourceSpan
    public var hints: [String]
    public var stage: DiagnosticStage

    public init(_ code: DiagnosticCode, _ message: String, at span: SourceSpan,
                hints: [String] = [], stage: DiagnosticStage = .parse) {
        self.code = code
        self.message = message
        self.span = span
        self.hints = hints
        self.stage = stage
    }

    public var description: String { "error[\(code.rawValue)]: \(message)" }

    // Spans compare equal by design (see SourceSpan); compare positions too here,
    // since where an error points is part of what a diagnostic says.
    public static func == (a: Diagnostic, b: Diagnostic) -> Bool {
        a.code == b.code && a.message == b.message && a.hints == b.hints && a.stage == b.stage
            && a.span.start == b.span.start && a.span.end == b.span.end
    }
}
