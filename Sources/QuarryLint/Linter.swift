// The linter's entry points: lint one source text (tests), or a set of paths
// with models and a config (the CLI). Directories are walked for .swift, .m,
// .mm and .h files (hidden folders, .build, Pods and Carthage skipped); the
// files are read and linted in parallel, the models loaded once beforehand.

import Dispatch
import Foundation
import QuarryModel

public enum Linter {
    /// Lints source text as if it were the file at `path` (its extension picks the language).
    public static func lint(source: String, path: String, models: [Model] = []) -> [Finding] {
        let language = SourceLanguage(path: path) ?? .swift
        return FileLinter.lint(SourceFile(path: path, text: source, language: language), models: ModelSet(models))
            .sorted(by: Finding.ordered)
    }

    /// Lints one format string against an optional entity: the checks of a
    /// call site without the call (used for the corpus and by tools).
    /// Findings are placed on line 1 at the character of the string they are about.
    public static func lint(format: String, isExpression: Bool = false, argumentShapes: [String]?,
                            entity: String? = nil, model: Model? = nil, file: String = "<format>") -> [Finding] {
        let arguments = argumentShapes?.enumerated().map { i, shape -> CallArgument in
            let s: ArgumentShape
            switch shape {
            case "number": s = .number
            case "bool": s = .bool
            case "null": s = .nilLiteral
            case "keypath": s = .keyPathLiteral
            default:
                if shape.hasPrefix("string:") { s = .string(String(shape.dropFirst(7))) } else { s = .other }
            }
            return CallArgument(shape: s, start: -1 - i)
        }
        let resolved = entity.flatMap { name in model?.entity(named: name) }
        let checker = FormatChecker(text: format, kind: isExpression ? .expression : .predicate, arguments: arguments,
                                    entity: resolved, model: resolved == nil ? nil : model)
        let bytes = Array(format.utf8)
        return checker.check().map { raw in
            var column = 1
            switch raw.place {
            case .format(let index): column = String(decoding: bytes.prefix(max(0, index)), as: UTF8.self).count + 1
            case .source(let o): column = -o  // the argument's 1-based position
            }
            return Finding(raw.rule, raw.message, file: file, line: 1, column: column, hints: raw.hints)
        }
    }

    /// The findings in a model's own stored predicates.
    public static func lintModel(_ model: Model) -> [Finding] {
        ModelLinter.lint(model, models: ModelSet([model]))
    }

    /// Reads every model (each once); a model whose stored predicates do not
    /// parse becomes a QL001 finding in the model file, anything else an error.
    public static func loadModels(_ paths: [String]) throws(LintError) -> (models: [Model], findings: [Finding]) {
        var models: [Model] = []
        var findings: [Finding] = []
        for path in paths {
            do {
                models.append(try ModelReader.read(from: path))
            } catch where error.kind == .invalidPredicate {
                findings.append(Finding(.parseError, error.message, file: error.file, line: error.line ?? 1,
                                        column: error.column ?? 1))
            } catch {
                throw LintError.unreadable("cannot read model \(path): \(error)")
            }
        }
        return (models, findings)
    }

    /// The source files under `paths`, sorted; a path that does not exist is an error.
    public static func sourceFiles(_ paths: [String]) throws(LintError) -> [String] {
        var files: [String] = []
        let fm = FileManager.default
        for path in paths {
            var isDirectory: ObjCBool = false
            guard fm.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw LintError.unreadable("no such file or directory: \(path)")
            }
            guard isDirectory.boolValue else { files.append(path); continue }
            let root = URL(fileURLWithPath: path).standardizedFileURL.path
            guard let walker = fm.enumerator(at: URL(fileURLWithPath: path), includingPropertiesForKeys: [.isDirectoryKey]) else { continue }
            for case let url as URL in walker {
                let name = url.lastPathComponent
                if (name.hasPrefix(".") && name.count > 1) || name == "Pods" || name == "Carthage" {
                    if (try? url.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true { walker.skipDescendants() }
                    continue
                }
                if SourceLanguage(path: name) != nil {
                    // Keep the user's spelling of the root: `Sources/App/A.swift`, not an absolute path.
                    let full = url.standardizedFileURL.path
                    let tail = full.hasPrefix(root + "/") ? String(full.dropFirst(root.count + 1)) : name
                    files.append(path.hasSuffix("/") ? path + tail : path + "/" + tail)
                }
            }
        }
        return files.sorted()
    }

    /// Lints the files (in parallel) and the models' own predicates, applies
    /// the config's severities, and returns the findings in file order.
    public static func lint(files: [String], models: [Model], config: LintConfig = LintConfig()) throws(LintError) -> [Finding] {
        let set = ModelSet(models)
        let results = ResultSlots(count: files.count)
        DispatchQueue.concurrentPerform(iterations: files.count) { i in
            guard let data = FileManager.default.contents(atPath: files[i]) else {
                results.set(i, .failure(LintError.unreadable("cannot read \(files[i])")))
                return
            }
            let language = SourceLanguage(path: files[i]) ?? .swift
            results.set(i, .success(FileLinter.lint(SourceFile(path: files[i], bytes: Array(data), language: language), models: set)))
        }
        var findings: [Finding] = []
        for result in results.all {
            switch result {
            case .success(let f): findings += f
            case .failure(let e): throw e
            case nil: break
            }
        }
        for model in models { findings += ModelLinter.lint(model, models: set) }
        return apply(config, to: findings).sorted(by: Finding.ordered)
    }

    /// Severities from the config; findings of rules switched off are dropped.
    public static func apply(_ config: LintConfig, to findings: [Finding]) -> [Finding] {
        findings.compactMap { f in
            var f = f
            f.severity = config.severities[f.rule] ?? f.severity
            return f.severity == .off ? nil : f
        }
    }
}

/// One result per file, written from many threads.
private final class ResultSlots: @unchecked Sendable {
    private var slots: [Result<[Finding], LintError>?]
    private let lock = NSLock()
    init(count: Int) { slots = Array(repeating: nil, count: count) }
    func set(_ i: Int, _ r: Result<[Finding], LintError>) { lock.lock(); slots[i] = r; lock.unlock() }
    var all: [Result<[Finding], LintError>?] { lock.lock(); defer { lock.unlock() }; return slots }
}
