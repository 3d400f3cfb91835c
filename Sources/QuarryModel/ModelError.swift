// ModelError: the one error type of the model layer. Every problem a model
// file can have — unreadable file, malformed YAML/JSON/XML, an unknown key, a
// relationship to an entity that does not exist — becomes one of these, with
// the file, the line (and column when the format tells us), a message saying
// what is wrong, and, where a name is unknown, the closest known name.
//
// Readers stop at the first error (a model with one broken entity usually has
// follow-on errors that only add noise); `Model.validationErrors()` collects
// every validation problem for tools that want them all.
//
// ModelWarning, at the end, is the same shape for what is not an error: text
// in a Core Data model that momc accepts and the XML reader therefore reads,
// converted or ignored, and reports.

/// What kind of problem a ``ModelError`` reports. Stable: tests and tools can
/// switch on it.
public enum ModelErrorKind: String, Sendable, Equatable, CaseIterable {
    /// The file or folder could not be read, or has an unknown extension.
    case unreadable
    /// The YAML, JSON, XML or property list itself is malformed.
    case syntax
    /// Well-formed text with the wrong shape: unknown key, wrong kind of node,
    /// missing required key, unknown attribute type or delete rule.
    case structure
    /// Two entities, or two properties of one entity (inherited ones included),
    /// have the same name.
    case duplicateName
    /// A relationship's destination, a parent entity, a fetch request's entity
    /// or a configuration member names no entity.
    case unknownEntity
    /// An index, uniqueness constraint or inverse names no property.
    case unknownProperty
    /// An inverse relationship that does not point back.
    case inverseMismatch
    /// An entity is its own ancestor.
    case inheritanceCycle
    /// A default value, minimum or maximum that is not a value of the attribute's type.
    case invalidValue
    /// A minimum greater than the maximum.
    case invalidRange
    /// A regular expression that does not compile.
    case invalidRegularExpression
    /// A stored predicate or expression that does not parse.
    case invalidPredicate
    /// Something Core Data has that Quarry does not read (composite attributes).
    case unsupported
    /// A name SQLite or PostgreSQL would refuse or confuse as a table or
    /// column (StorageNames.swift): quotes, NUL, reserved prefixes, names
    /// differing only in case.
    case invalidName
}

/// A problem in a model file, with where it is and what is wrong.
///
/// ```swift
/// do { _ = try ModelReader.read(from: "Company.yaml") }
/// catch { print(error) }   // Company.yaml:12:11: error: relationship 'department' of Employee: no entity named 'Departmnet' (did you mean 'Department'?)
/// ```
public struct ModelError: Error, Sendable, Equatable, CustomStringConvertible {
    public var kind: ModelErrorKind
    /// The file the model came from (the `contents` file for Core Data models);
    /// `"<model>"` for models built in code.
    public var file: String
    /// 1-based line, when known.
    public var line: Int?
    /// 1-based column (in characters), when known.
    public var column: Int?
    /// What is wrong, naming the entity and property involved.
    public var message: String
    /// A known name close to an unknown one ("did you mean").
    public var suggestion: String?

    public init(_ kind: ModelErrorKind, _ message: String, file: String,
                line: Int? = nil, column: Int? = nil, suggestion: String? = nil) {
        self.kind = kind
        self.message = message
        self.file = file
        self.line = line
        self.column = column
        self.suggestion = suggestion
    }

    /// `file:line:column: error: message (did you mean 'x'?)`, the shape
    /// compilers use so editors can jump to the place.
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

/// Something in a model file that Core Data's model compiler (momc) accepts
/// with a warning, or silently converts, and that Quarry therefore reads too:
/// an Integer default written `0.0` or `YES`, a maximum beyond the type's
/// range, an inverse that does not point back. The reader says what it did
/// instead of refusing the file; `Model.warnings` lists them and the `quarry`
/// CLI prints them on stderr.
///
/// ```swift
/// let model = try ModelReader.read(from: "App.xcdatamodeld")
/// for w in model.warnings { print(w) }  // App.xcdatamodel/contents:7:70: warning: attribute 'count' of Item: ...
/// ```
public struct ModelWarning: Sendable, Equatable, CustomStringConvertible {
    /// The kind of problem it would have been, were it refused.
    public var kind: ModelErrorKind
    public var file: String
    public var line: Int?
    public var column: Int?
    /// What was found and what the reader made of it.
    public var message: String

    public init(_ kind: ModelErrorKind, _ message: String, file: String, line: Int? = nil, column: Int? = nil) {
        self.kind = kind
        self.message = message
        self.file = file
        self.line = line
        self.column = column
    }

    /// `file:line:column: warning: message`, as compilers print warnings.
    public var description: String {
        var place = file
        if let line {
            place += ":\(line)"
            if let column { place += ":\(column)" }
        }
        return "\(place): warning: \(message)"
    }
}
