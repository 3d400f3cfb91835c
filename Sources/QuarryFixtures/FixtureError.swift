// FixtureError: the one error of fixture generation. A bad factories file, a
// count that a required relationship cannot meet, an impossible uniqueness,
// a failed write: each says where (the factories file with line and column,
// the command line's `--count`, or the model file) and what is wrong, in the
// `file:line:column: error: message` shape editors jump to, as ModelError
// does for models.
import QuarryModel

/// What kind of problem a ``FixtureError`` reports. Stable: tests switch on it.
public enum FixtureErrorKind: String, Sendable, Equatable, CaseIterable {
    /// The factories file, the model or the output could not be read or written.
    case unreadable
    /// Malformed YAML in the factories file.
    case syntax
    /// Well-formed YAML with the wrong shape: unknown key, wrong kind of node.
    case structure
    /// A factory or `--count` names an entity the model does not have.
    case unknownEntity
    /// A factory names an attribute or relationship the entity does not have.
    case unknownProperty
    /// A generator that cannot produce values of the attribute's type, or
    /// outside its bounds, or a pattern or expression that does not compile.
    case invalidGenerator
    /// A negative or otherwise unusable count.
    case invalidCount
    /// The generator cannot produce enough distinct values for a uniqueness constraint.
    case impossibleUniqueness
    /// Counts with which a required relationship (or a min/max count) cannot be met.
    case unsatisfiableRelationship
    /// The model itself failed to read or validate.
    case model
    /// Writing the output failed.
    case output
}

/// A problem found while planning or generating fixtures.
///
/// ```swift
/// do { try FixtureGenerator(model: model, factories: factories).write(to: "out.sqlite") }
/// catch { print(error) }  // company.yaml:14:14: error: Employee has no attribute 'salery' (did you mean 'salary'?)
/// ```
public struct FixtureError: Error, Sendable, Equatable, CustomStringConvertible {
    public var kind: FixtureErrorKind
    /// The factories file, `"--count"` for the command line, or the model file.
    public var file: String
    public var line: Int?
    public var column: Int?
    public var message: String
    public var suggestion: String?

    public init(_ kind: FixtureErrorKind, _ message: String, at location: FixtureLocation? = nil,
                suggestion: String? = nil) {
        self.kind = kind
        self.message = message
        self.file = location?.file ?? "<fixtures>"
        self.line = location?.line
        self.column = location?.column
        self.suggestion = suggestion
    }

    init(model error: ModelError) {
        self.init(.model, error.message, at: FixtureLocation(file: error.file, line: error.line, column: error.column),
                  suggestion: error.suggestion)
    }

    public var description: String {
        var place = file
        if let line {
            place += ":\(line)"
            if let column { place += ":\(column)" }
        }
        var text = "\(place): error: \(message)"
        if let suggestion { text += " (did you mean '\(suggestion)'?)" }
        return text
    }
}

/// Where a setting came from: a place in a factories file, or the command line.
public struct FixtureLocation: Sendable, Equatable {
    public var file: String
    public var line: Int?
    public var column: Int?

    public init(file: String, line: Int? = nil, column: Int? = nil) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// The command line's `--count` option.
    public static let commandLine = FixtureLocation(file: "--count")
}
