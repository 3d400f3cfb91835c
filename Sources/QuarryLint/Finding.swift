// What the linter reports: a rule with a stable id, a severity, and a
// finding placed at a line and column of a source (or model) file.
//
// Rule ids are part of the contract (config files, disable comments, SARIF
// consumers): never renumber one; add new rules at the end.

/// How serious a finding is. `off` only appears in configuration.
public enum LintSeverity: String, Sendable, Codable, Comparable, CaseIterable {
    case off, info, warning, error

    public static func < (a: Self, b: Self) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}

/// Every check the linter runs.
public enum LintRule: String, Sendable, Codable, CaseIterable {
    /// The format string does not parse.
    case parseError = "QL001"
    /// The call passes more or fewer arguments than the string has specifiers.
    case argumentCount = "QL002"
    /// A specifier is given an argument of an obviously wrong kind.
    case argumentType = "QL003"
    /// A key path names no property of the entity.
    case unknownKey = "QL004"
    /// An operator or aggregate applied to a property of the wrong type.
    case operatorType = "QL005"
    /// A to-many key path compared as if it were a single value.
    case toManyUnquantified = "QL006"
    /// A `%K` argument names no property of the entity.
    case unknownKeyArgument = "QL007"
    /// Something Core Data cannot run in a SQLite fetch.
    case sqliteUnsupported = "QL008"
    /// The string is interpolated or built at run time: checked only as far as it is constant.
    case notConstant = "QL009"
    /// The file or literal could not be read (unterminated literal, binary or huge file).
    case unreadable = "QL010"
    /// The entity named for a fetch request is not in the model.
    case unknownEntity = "QL011"
    /// `LIKE` with a pattern that has no wildcard: it compares whole strings, as `==` does.
    case likeWithoutWildcards = "QL012"
    /// A case- or diacritic-insensitive comparison on an indexed attribute: the index cannot serve it.
    case insensitiveOnIndex = "QL013"
    /// `CONTAINS` with a to-many relationship on the left and a plain value on the right.
    case containsOnToMany = "QL014"

    public var defaultSeverity: LintSeverity {
        switch self {
        case .parseError, .argumentCount, .argumentType, .unknownKey, .operatorType,
             .toManyUnquantified, .unknownKeyArgument:
            return .error
        case .sqliteUnsupported, .unreadable, .unknownEntity, .containsOnToMany:
            return .warning
        case .notConstant, .likeWithoutWildcards, .insensitiveOnIndex:
            return .info
        }
    }

    public var summary: String {
        switch self {
        case .parseError: return "format string does not parse"
        case .argumentCount: return "argument count does not match the specifiers"
        case .argumentType: return "argument does not fit its specifier"
        case .unknownKey: return "key path names no property of the entity"
        case .operatorType: return "operator does not fit the property's type"
        case .toManyUnquantified: return "to-many key path compared without ANY/ALL/NONE or an aggregate"
        case .unknownKeyArgument: return "%K argument names no property of the entity"
        case .sqliteUnsupported: return "Core Data cannot run this in a SQLite fetch"
        case .notConstant: return "string is not constant; checked only as far as it is"
        case .unreadable: return "file or literal could not be read"
        case .unknownEntity: return "entity is not in the model"
        case .likeWithoutWildcards: return "LIKE without a wildcard compares whole strings: == says so"
        case .insensitiveOnIndex: return "case- or diacritic-insensitive comparison on an indexed attribute: the index cannot serve it"
        case .containsOnToMany: return "CONTAINS on a to-many relationship given a plain value: meant ANY … =="
        }
    }
}

/// One problem at one place.
public struct Finding: Sendable, Equatable, Codable {
    public var rule: LintRule
    public var severity: LintSeverity
    public var file: String
    public var line: Int
    public var column: Int
    public var message: String
    public var hints: [String]
    /// The text of the line the finding is on, when the linter had the file
    /// at hand (the text report shows it without reading the file again).
    public var sourceLine: String?

    enum CodingKeys: String, CodingKey { case rule, severity, file, line, column, message, hints }

    public init(_ rule: LintRule, _ message: String, file: String, line: Int, column: Int,
                hints: [String] = [], severity: LintSeverity? = nil) {
        self.rule = rule
        self.severity = severity ?? rule.defaultSeverity
        self.file = file
        self.line = line
        self.column = column
        self.message = message
        self.hints = hints
    }

    /// Output order: by file, then position, then rule.
    static func ordered(_ a: Finding, _ b: Finding) -> Bool {
        (a.file, a.line, a.column, a.rule.rawValue) < (b.file, b.line, b.column, b.rule.rawValue)
    }
}
