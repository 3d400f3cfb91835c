// The logic of `quarry export`, kept out of the executable so tests can run
// it without a process:
//
//     quarry export --store App.sqlite [--model M] --to data.sqlite|postgres://…[?schema=s] [--force]
//
// The source is any store Quarry opens: an app's Core Data store (read-only,
// never written; the model from --model or its Z_MODELCACHE) or a Quarry
// store. Its rows go into a new Quarry SQLite file (written beside the
// target and renamed over it only on success) or a PostgreSQL schema (one
// transaction) with the same model (StoreExport.swift). Data already at the
// target is never replaced without --force, as `quarry fixtures` refuses.
// On a terminal a progress bar (tables done, rows copied) is drawn on
// stderr; it never reaches a pipe. Exit codes: 0 done, 64 bad usage, 65 the
// source cannot be read as a store of the model, 66 a file or server that
// cannot be opened, 1 when the target holds data or writing fails.
import Foundation
import QuarryCoreData
import QuarryPostgres
import QuarryStore

public struct ExportCommand {
    public var store: String
    public var model: String?
    public var to: String
    public var force: Bool
    public var progress: Bool

    public init(store: String, model: String?, to: String, force: Bool, progress: Bool) {
        self.store = store
        self.model = model
        self.to = to
        self.force = force
        self.progress = progress
    }

    var isPostgres: Bool { to.hasPrefix("postgres://") || to.hasPrefix("postgresql://") }

    public func run() -> CommandOutcome {
        func fail(_ code: Int32, _ message: String) -> CommandOutcome {
            CommandOutcome(stdout: "", stderr: "error: \(message)\n", exitCode: code)
        }
        // The file target is checked before the source is even read.
        if !isPostgres {
            if let what = Self.existingData(at: to), !force {
                return fail(ExitStatus.statementFailed, "\(to) already holds \(what); add --force to replace it")
            }
            do { try StorePathCheck.check(to) } catch { return fail(ExitStatus.cannotOpen, "\(error)") }
            if URL(fileURLWithPath: to).standardized.path == URL(fileURLWithPath: store).standardized.path {
                return fail(ExitStatus.usage, "--to names the source store")
            }
        }
        var warnings = ""
        let source: SQLStore
        do {
            source = try openSource(warnings: &warnings)
        } catch let error as CoreDataError {
            let code = error.kind == .unreadableStore ? ExitStatus.cannotOpen : ExitStatus.badInput
            return CommandOutcome(stdout: "", stderr: warnings + "error: \(error)\n", exitCode: code)
        } catch {
            return CommandOutcome(stdout: "", stderr: warnings + "error: cannot open \(store): \(error)\n", exitCode: ExitStatus.cannotOpen)
        }
        defer { source.database.close() }
        let bar = progress ? ExportProgressBar() : nil
        let report: ((ExportProgress) -> Void)? = bar.map { bar in { bar.update($0) } }
        let summary: ExportSummary
        let destination: String
        do {
            if isPostgres {
                destination = (try? PostgresURL(to).redacted) ?? "the PostgreSQL store"
                let target: SQLStore
                do { target = try SQLStore(postgres: to, model: source.model, layout: source.mapping.layoutRecord) } catch {
                    return CommandOutcome(stdout: "", stderr: warnings + "error: cannot open \(destination): \(error)\n", exitCode: ExitStatus.cannotOpen)
                }
                defer { target.database.close() }
                let rows = try Self.storedRows(target)
                if rows > 0 && !force {
                    return CommandOutcome(stdout: "", stderr: warnings + "error: \(destination) already holds \(rows) row\(rows == 1 ? "" : "s"); add --force to replace them\n",
                                          exitCode: ExitStatus.statementFailed)
                }
                summary = try StoreExport.copy(from: source, to: target, progress: report)
            } else {
                destination = to
                summary = try StoreExport.copy(from: source, toFile: to, progress: report)
            }
        } catch {
            bar?.finish()
            return CommandOutcome(stdout: "", stderr: warnings + "error: export failed, nothing was written: \(error)\n", exitCode: ExitStatus.statementFailed)
        }
        bar?.finish()
        let perEntity = source.model.entityNames.compactMap { name in summary.objects[name].map { "\(name) \($0)" } }.joined(separator: ", ")
        let text = "exported \(summary.objectCount) objects" + (perEntity.isEmpty ? "" : " (\(perEntity))")
            + " and \(summary.links) links to \(destination)\n"
        return CommandOutcome(stdout: text, stderr: warnings, exitCode: ExitStatus.success)
    }

    /// A Core Data store (read-only; the model given or cached), else a
    /// Quarry store (with the model given or saved in it).
    private func openSource(warnings: inout String) throws -> SQLStore {
        guard FileManager.default.fileExists(atPath: store) else {
            throw CoreDataError(.unreadableStore, "no file at '\(store)'")
        }
        // Anything but a Quarry store goes to QuarryCoreData, whose
        // refusals say what the file is (not SQLite, damaged, no model).
        guard case .quarry? = try? SQLiteFileInspection.kind(of: store) else {
            let opened = try CoreDataStore.open(path: store, modelPath: model)
            warnings += "note: '\(store)' is a Core Data store, opened read-only; model: \(opened.modelSource)\n"
            for w in opened.warnings { warnings += "warning: \(w)\n" }
            return opened.store
        }
        let storeModel: Model
        if let model { storeModel = try ModelReader.read(from: model) } else if let saved = try SQLStore.storedModel(at: store) {
            storeModel = saved
        } else {
            throw CoreDataError(.noModel, "'\(store)' has no saved model; give one with --model")
        }
        return try SQLStore(path: store, model: storeModel)
    }

    /// What a path already holds that the export would replace (nil for no
    /// file or an empty one): the same rule as `quarry fixtures --out`.
    static func existingData(at path: String) -> String? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        let size = ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
        return size == 0 ? nil : "data (\(size) bytes)"
    }

    /// How many rows the store's tables hold (join tables included).
    static func storedRows(_ store: SQLStore) throws -> Int {
        var total = 0
        for table in store.mapping.tableNames {
            if case .int(let n)? = try store.database.query("SELECT COUNT(*) FROM \(SQLIdentifier.quoted(table))", [], as: [.int]).first?.first {
                total += Int(n)
            }
        }
        return total
    }
}

/// A one-line bar redrawn in place on stderr at most ten times a second:
/// rows copied of all, and which table of how many.
final class ExportProgressBar {
    private var last = Date.distantPast
    private var drawn = false

    func update(_ p: ExportProgress) {
        guard Date().timeIntervalSince(last) > 0.1 || p.tablesDone == p.tableCount else { return }
        last = Date()
        let width = 30
        let filled = p.totalRows == 0 ? width : width * min(p.rowsDone, p.totalRows) / p.totalRows
        let line = "\r[" + String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled)
            + "] \(p.rowsDone)/\(p.totalRows) rows, table \(min(p.tablesDone + 1, p.tableCount))/\(p.tableCount) \(p.table)\u{1B}[K"
        FileHandle.standardError.write(Data(line.utf8))
        drawn = true
    }

    func finish() {
        if drawn { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
    }
}
