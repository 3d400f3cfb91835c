// SourceMap: where each part of a model came from in its file, kept beside
// the model rather than inside the public value types. That way an
// `Attribute` read from YAML equals the same attribute read from Core Data
// XML (positions differ, meaning does not), and models built in code need
// no positions at all.
//
// Keys are paths: ["Employee"] is the entity, ["Employee", "salary"] a
// property, ["Employee", "salary", "default"] one of its fields, and
// "#"-prefixed components name things that are not properties
// (["#fetch", "wellPaid"], ["Employee", "#index", "byName"]). Lookup falls
// back to the closest enclosing path, so an error always lands somewhere.

/// A position in a model file.
struct ModelLocation: Sendable {
    var line: Int
    var column: Int?
    /// For a single-line text value (a predicate): the file column of each
    /// character of the decoded text, so a parse error inside the predicate
    /// can point at its own column in the file. Nil when the text spans lines
    /// or its escapes make the mapping unreliable.
    var textColumns: [Int]? = nil

    /// The file column of character `index` (0-based) of the value, when known.
    func column(ofCharacter index: Int) -> Int? {
        guard let textColumns, !textColumns.isEmpty else { return nil }
        return textColumns[Swift.min(Swift.max(index, 0), textColumns.count - 1)]
    }
}

/// Positions of a model's parts in the file it was read from. Never part of
/// a model's equality.
struct SourceMap: Sendable, Equatable {
    var file: String = "<model>"
    private var locations: [[String]: ModelLocation] = [:]

    init(file: String = "<model>") { self.file = file }

    subscript(path: [String]) -> ModelLocation? {
        get { locations[path] }
        set { locations[path] = newValue }
    }

    /// The location of `path`, or of its closest enclosing path that has one.
    func nearest(_ path: [String]) -> ModelLocation? {
        var path = path
        while !path.isEmpty {
            if let location = locations[path] { return location }
            path.removeLast()
        }
        return nil
    }

    /// A ``ModelError`` placed at `path`.
    func error(_ kind: ModelErrorKind, _ message: String, at path: [String],
               suggestion: String? = nil) -> ModelError {
        let location = nearest(path)
        return ModelError(kind, message, file: file, line: location?.line,
                          column: location?.column, suggestion: suggestion)
    }

    static func == (_: SourceMap, _: SourceMap) -> Bool { true }
}
