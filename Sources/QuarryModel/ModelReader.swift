// ModelReader: the front door. Picks a reader by what the path is — a YAML
// or JSON file, a Core Data `.xcdatamodeld` bundle (following its
// `.xccurrentversion`), one `.xcdatamodel` version folder, or a bare
// `contents` XML file — reads it, and validates the result. Every failure,
// from a missing file to a bad predicate, is a ModelError.
import Foundation
import QuarrySyntax

/// Reads models from files.
///
/// ```swift
/// let company = try ModelReader.read(from: "Examples/Models/Company.yaml")
/// let same = try ModelReader.read(from: "Examples/Models/Company.xcdatamodeld")
/// assert(company == same)
/// ```
public enum ModelReader {
    /// Reads and validates the model at `path`, choosing the format by its
    /// extension (`.yaml`, `.yml`, `.json`, `.xcdatamodeld`, `.xcdatamodel`)
    /// or, for a file named `contents`, as Core Data XML.
    public static func read(from path: String) throws(ModelError) -> Model {
        let url = URL(fileURLWithPath: path)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ModelError(.unreadable, "no such file or folder", file: path)
        }
        switch url.pathExtension.lowercased() {
        case "yaml", "yml":
            return try read(yaml: try text(of: path), file: path)
        case "json":
            return try read(json: try text(of: path), file: path)
        case "xcdatamodeld":
            return try readBundle(path)
        case "xcdatamodel":
            return try readVersion(path)
        default:
            if !isDirectory.boolValue && (url.lastPathComponent == "contents" || url.pathExtension.lowercased() == "xml") {
                return try read(xml: try text(of: path), file: path)
            }
            throw ModelError(.unreadable,
                             "cannot tell the model format: expected .yaml, .yml, .json, .xcdatamodeld, .xcdatamodel or a 'contents' file",
                             file: path)
        }
    }

    /// Reads Quarry's YAML model format from text; `file` names it in errors.
    public static func read(yaml: String, file: String = "<yaml>") throws(ModelError) -> Model {
        try YAMLModelReader.read(yaml: yaml, file: file)
    }

    /// Reads Quarry's model format written as JSON.
    public static func read(json: String, file: String = "<json>") throws(ModelError) -> Model {
        // JSON is read by the YAML parser (for its line and column marks).
        // YAML forbids tabs as indentation where JSON allows them anywhere
        // between tokens; a JSON string cannot hold a raw tab, so turning
        // every tab into a space changes no value and no column.
        let text = json.utf8.contains(UInt8(ascii: "\t")) ? json.replacingOccurrences(of: "\t", with: " ") : json
        return try YAMLModelReader.read(yaml: text, file: file, language: "JSON")
    }

    /// Reads a Core Data model `contents` XML document from text.
    public static func read(xml: String, file: String = "<xml>") throws(ModelError) -> Model {
        try XMLModelReader.read(xml: xml, file: file)
    }

    // MARK: - Core Data bundles

    /// A `.xcdatamodeld` holds one `.xcdatamodel` folder per model version;
    /// `.xccurrentversion` (a property list) names the current one under
    /// `_XCCurrentVersionName`. Without it, Xcode uses the only version; with
    /// several and no marker, take the last by name (the newest, as versions
    /// are usually numbered) rather than refuse.
    static func readBundle(_ path: String) throws(ModelError) -> Model {
        let versions: [String]
        do {
            versions = try FileManager.default.contentsOfDirectory(atPath: path)
                .filter { $0.hasSuffix(".xcdatamodel") }
                .sorted { versionName($0).compare(versionName($1), options: .numeric) == .orderedAscending }
        } catch {
            throw ModelError(.unreadable, "cannot list the model bundle: \(error.localizedDescription)", file: path)
        }
        let markerPath = path + "/.xccurrentversion"
        if FileManager.default.fileExists(atPath: markerPath) {
            let name = try currentVersionName(markerPath)
            guard versions.contains(name) else {
                throw ModelError(.unreadable, "the current version '\(name)' is not in the bundle (versions: \(versions.joined(separator: ", ")))",
                                 file: markerPath, suggestion: QuarrySyntax.Suggestions.closest(to: name, among: versions))
            }
            return try readVersion(path + "/" + name)
        }
        guard let last = versions.last else {
            throw ModelError(.unreadable, "the model bundle holds no .xcdatamodel version", file: path)
        }
        return try readVersion(path + "/" + last)
    }

    /// "App 2.xcdatamodel" → "App 2": compared without the extension so
    /// that "App" sorts before "App 2" (a space sorts before the dot).
    static func versionName(_ folder: String) -> String {
        String(folder.dropLast(".xcdatamodel".count))
    }

    static func currentVersionName(_ markerPath: String) throws(ModelError) -> String {
        guard let data = FileManager.default.contents(atPath: markerPath) else {
            throw ModelError(.unreadable, "cannot read the file", file: markerPath)
        }
        let plist: Any
        do {
            plist = try PropertyListSerialization.propertyList(from: data, format: nil)
        } catch {
            throw ModelError(.syntax, "malformed property list: \(error.localizedDescription)", file: markerPath)
        }
        guard let dict = plist as? [String: Any], let name = dict["_XCCurrentVersionName"] as? String else {
            throw ModelError(.structure, "no _XCCurrentVersionName string in the property list", file: markerPath)
        }
        return name
    }

    /// One model version: a folder whose `contents` file is the XML. Xcode 3
    /// wrote binary `elements`/`layout` files instead, which are not read.
    static func readVersion(_ path: String) throws(ModelError) -> Model {
        let contents = path + "/contents"
        guard FileManager.default.fileExists(atPath: contents) else {
            throw ModelError(.unreadable, "no 'contents' file in the model version (only the XML format of Xcode 4 and later is read)",
                             file: path)
        }
        return try read(xml: try text(of: contents), file: contents)
    }

    static func text(of path: String) throws(ModelError) -> String {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ModelError(.unreadable, "cannot read the file", file: path)
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ModelError(.syntax, "the file is not UTF-8 text", file: path)
        }
        return text
    }
}

/// Turning a parse error inside a stored predicate or expression into a
/// ModelError that points into the model file.
enum StoredText {
    static func error(_ diagnostic: Diagnostic, in text: String, at location: ModelLocation, file: String,
                      what: String, isExpression: Bool = false) -> ModelError {
        let source = SourceText(text)
        let inner = source.location(of: diagnostic.span.start)
        var line = location.line
        var column = location.column
        if let mapped = location.column(ofCharacter: inner.column - 1), inner.line == 1 {
            column = mapped
        } else if inner.line > 1 {
            // A multi-line value: at least get the line right.
            line += inner.line - 1
            column = nil
        }
        let kind = isExpression ? "expression" : "predicate"
        let message = "\(what): the \(kind) does not parse: \(diagnostic.message) [\(diagnostic.code.rawValue)]"
        return ModelError(.invalidPredicate, message, file: file, line: line, column: column,
                          suggestion: nil)
    }
}
