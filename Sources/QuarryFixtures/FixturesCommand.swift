// The logic of `quarry fixtures`, kept here so that the executable only
// parses arguments and the tests can run the command without a process:
//
//     quarry fixtures --model PATH (--out PATH | --postgres URL) [--count Entity=N]...
//                     [--seed N] [--factories PATH] [--format sqlite|json|ndjson|csv|sql|coredata] [--edge-cases] [--force | --append]
//
// With a database instead of a path, the caller opens the store (the
// executable opens PostgreSQL) and the rows replace the store's in one
// transaction. Either way, data already there is never replaced without
// `--force`: a path that exists and is not empty, or a store whose tables
// hold rows, is refused before anything is generated. `--append` adds the
// rows to a store of the same model instead, after the rows it holds.
//
// Exit codes follow INTERFACES.md: 0 done, 64 bad usage (a `--count`
// without `=`, an unknown format), 65 bad input (the model or factories
// file, or counts the model's constraints cannot meet), 66 a file that
// cannot be opened, 1 when writing fails. On a terminal, runs of 50,000
// rows or more draw a progress bar on stderr; it never reaches a pipe.
import Foundation

public enum FixturesCommand {
    /// What the command printed and its exit code.
    public struct Outcome: Sendable, Equatable {
        public var stdout: String
        public var stderr: String
        public var exitCode: Int32
    }

    /// Runs the command. `counts` are `Entity=N` strings as typed;
    /// `progress` draws the bar on this process's stderr (pass
    /// `isatty(2) != 0` from the executable).
    public static func run(model modelPath: String, out: String, counts: [String] = [], seed: UInt64? = nil,
                           factories factoriesPath: String? = nil, format: String? = nil, edgeCases: Bool = false,
                           force: Bool = false, append: Bool = false, progress: Bool = false) -> Outcome {
        run(model: modelPath, target: .file(out, format: format), counts: counts, seed: seed, factories: factoriesPath,
            edgeCases: edgeCases, force: force, append: append, progress: progress)
    }

    /// Where the rows go: a file in a format, or a store the caller opens
    /// for the model (named by `description` in messages).
    public enum Target {
        case file(String, format: String?)
        case store(description: String, open: (Model, String) throws -> SQLStore)
    }

    public static func run(model modelPath: String, target: Target, counts: [String] = [], seed: UInt64? = nil,
                           factories factoriesPath: String? = nil, edgeCases: Bool = false,
                           force: Bool = false, append: Bool = false, progress: Bool = false) -> Outcome {
        if force && append {
            return Outcome(stdout: "", stderr: "error: give --force (replace the data) or --append (add to it), not both\n", exitCode: 64)
        }
        var parsedCounts: [String: Int] = [:]
        for item in counts {
            let parts = item.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, !parts[0].isEmpty, let n = Int(parts[1].replacingOccurrences(of: "_", with: "")), n >= 0 else {
                return Outcome(stdout: "", stderr: "error: --count takes Entity=N with N a whole number ≥ 0, found '\(item)'\n", exitCode: 64)
            }
            parsedCounts[parts[0]] = n
        }
        var fixtureFormat: FixtureFormat?
        if case .file(_, let format) = target, let format {
            guard let f = FixtureFormat(rawValue: format.lowercased()) else {
                return Outcome(stdout: "", stderr: "error: unknown format '\(format)' (formats: \(FixtureFormat.allCases.map(\.rawValue).joined(separator: ", ")))\n",
                               exitCode: 64)
            }
            fixtureFormat = f
        } else if case .file(let out, _) = target, FixtureFormat(path: out) == nil {
            return Outcome(stdout: "", stderr: "error: cannot tell the format from '\(out)'; add --format sqlite|json|ndjson|csv|sql|coredata\n", exitCode: 64)
        }
        if append, case .file(let out, _) = target, (fixtureFormat ?? FixtureFormat(path: out)) != .sqlite {
            return Outcome(stdout: "", stderr: "error: --append adds to a store: a SQLite file (--format sqlite) or --postgres\n", exitCode: 64)
        }
        let model: Model
        do {
            model = try ModelReader.read(from: modelPath)
        } catch {
            return Outcome(stdout: "", stderr: "\(error)\n", exitCode: error.kind == .unreadable ? 66 : 65)
        }
        do {
            let factories = try factoriesPath.map { (path) throws(FixtureError) in try FactoriesReader.read(from: path) } ?? Factories()
            // No --seed and none in the factories: a fresh one, printed in
            // the summary so that the run can be repeated (`random()` in
            // factories then differs from run to run, as it should).
            let chosenSeed = seed ?? factories.seed ?? UInt64.random(in: 1...999_999_999)
            let generator = try FixtureGenerator(model: model, factories: factories, seed: chosenSeed, counts: parsedCounts, edgeCases: edgeCases)
            // Checked once the inputs are known good, before any row is made.
            if case .file(let out, _) = target, !force, !append, let what = existingData(at: out) {
                return Outcome(stdout: "", stderr: "error: \(out) already holds \(what); add --force to replace it (or --append to add to a store)\n", exitCode: 1)
            }
            let bar = progress ? ProgressBar() : nil
            if let bar { generator.progress = { bar.update($0) } }
            let summary: FixtureSummary
            let destination: String
            switch target {
            case .file(let out, _) where append && existingData(at: out) != nil:
                let store: SQLStore
                do {
                    store = try sameModelStore(at: out, model: model)
                } catch {
                    bar?.finish()
                    return Outcome(stdout: "", stderr: "error: cannot append to \(out): \(error)\n", exitCode: 1)
                }
                defer { store.database.close() }
                summary = try generator.write(into: store, append: true)
                destination = out
            case .file(let out, _):
                summary = try generator.write(to: out, format: fixtureFormat)
                destination = out
            case .store(let description, let open):
                let store: SQLStore
                do {
                    store = try open(model, modelPath)
                } catch {
                    bar?.finish()
                    return Outcome(stdout: "", stderr: "error: cannot open \(description): \(error)\n", exitCode: 66)
                }
                if append, (try? SQLStore.storedModel(in: store.database)) != model {
                    bar?.finish()
                    return Outcome(stdout: "", stderr: "error: cannot append to \(description): it holds a store of another model\n", exitCode: 1)
                }
                if !force, !append, let rows = try? storedRows(store), rows > 0 {
                    bar?.finish()
                    return Outcome(stdout: "", stderr: "error: \(description) already holds \(rows) row\(rows == 1 ? "" : "s"); add --force to replace them or --append to add to them\n",
                                   exitCode: 1)
                }
                summary = try generator.write(into: store, append: append)
                destination = description
            }
            bar?.finish()
            let perEntity = model.entityNames.compactMap { name in summary.objects[name].map { "\(name) \($0)" } }.joined(separator: ", ")
            let text = "wrote \(summary.objectCount) objects (\(perEntity))"
                + (summary.links > 0 ? " and \(summary.links) links" : "") + " to \(destination), seed \(generator.seed)\n"
            return Outcome(stdout: text, stderr: summary.warnings.map { "warning: \($0)\n" }.joined(), exitCode: 0)
        } catch {
            let code: Int32 = switch error.kind {
            case .unreadable: 66
            case .output: 1
            default: 65
            }
            return Outcome(stdout: "", stderr: "\(error)\n", exitCode: code)
        }
    }
}

extension FixturesCommand {
    /// What a path already holds that writing there would replace: nil for
    /// no file, an empty file or an empty folder.
    static func existingData(at path: String) -> String? {
        let fm = FileManager.default
        var isDirectory: ObjCBool = false
        guard fm.fileExists(atPath: path, isDirectory: &isDirectory) else { return nil }
        if isDirectory.boolValue {
            let entries = (try? fm.contentsOfDirectory(atPath: path)) ?? []
            return entries.isEmpty ? nil : "\(entries.count) file\(entries.count == 1 ? "" : "s")"
        }
        let size = ((try? fm.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
        return size == 0 ? nil : "data (\(size) bytes)"
    }

    /// The store at `path`, when it was made for `model` (its saved model
    /// is the same): the one kind of store `--append` adds to.
    static func sameModelStore(at path: String, model: Model) throws -> SQLStore {
        struct NotTheSameModel: Error, CustomStringConvertible {
            var description: String { "it holds a store of another model (or not a Quarry store)" }
        }
        guard try SQLStore.storedModel(at: path) == model else { throw NotTheSameModel() }
        return try SQLStore(path: path, model: model)
    }

    /// How many rows the store's tables hold (join tables included).
    static func storedRows(_ store: SQLStore) throws -> Int {
        var total = 0
        for table in store.mapping.tableNames {
            if case .int(let n)? = try store.database.rows("SELECT COUNT(*) FROM \(SQLIdentifier.quoted(table))").first?.first { total += Int(n) }
        }
        return total
    }
}

/// A one-line progress bar redrawn in place on stderr, at most ten times a second.
final class ProgressBar: @unchecked Sendable {
    private var last = Date.distantPast
    private var drawn = false

    func update(_ p: FixtureProgress) {
        guard p.total >= 50_000, Date().timeIntervalSince(last) > 0.1 else { return }
        last = Date()
        let width = 30
        let filled = p.total == 0 ? width : width * p.done / p.total
        let line = "\r[" + String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled)
            + "] \(100 * p.done / max(p.total, 1))% \(p.entity)\u{1B}[K"
        FileHandle.standardError.write(Data(line.utf8))
        drawn = true
    }

    func finish() {
        if drawn { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
    }
}
