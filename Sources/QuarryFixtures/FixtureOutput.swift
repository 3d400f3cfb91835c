// Writing a run to a path, all or nothing: output goes to a hidden temporary
// file (or folder, for CSV) beside the destination and is renamed over it
// only when every record was written. A failure — an impossible value on row
// 900,000, a full disk — removes the temporary and leaves no partial file.
// Also here: the formats, and a buffered byte writer for the text formats.
import Foundation

/// Output formats of `write(to:format:)`.
public enum FixtureFormat: String, Sendable, CaseIterable {
    /// A new Quarry SQLite store (the schema SQLStore creates).
    case sqlite
    /// One JSON document: entity name → array of objects, join table → array of links.
    case json
    /// One JSON object per line.
    case ndjson
    /// A folder with one CSV file per entity and per join table.
    case csv
    /// A SQL script that creates the same store (schema, then INSERTs, in one transaction).
    case sql
    /// A new Core Data store of the model (CoreDataFixtureOutput.swift):
    /// only when asked (`--format coredata`), never from an extension.
    case coredata

    /// The format a path's extension suggests (`.sqlite`, `.db`, `.json`, `.ndjson`, `.jsonl`, `.csv`, `.sql`).
    public init?(path: String) {
        switch URL(fileURLWithPath: path).pathExtension.lowercased() {
        case "sqlite", "sqlite3", "db", "store": self = .sqlite
        case "json": self = .json
        case "ndjson", "jsonl": self = .ndjson
        case "csv": self = .csv
        case "sql": self = .sql
        default: return nil
        }
    }
}

/// What a run wrote.
public struct FixtureSummary: Sendable, Equatable {
    /// Objects per entity.
    public var objects: [String: Int] = [:]
    /// Join-table rows.
    public var links = 0
    /// What the user should know of the output (a Core Data name that is a best guess).
    public var warnings: [String] = []
    public var objectCount: Int { objects.values.reduce(0, +) }
}

/// Receives records in stream order.
protocol FixtureWriter: AnyObject {
    func write(_ record: FixtureRecord) throws
    func finish() throws
}

extension FixtureGenerator {
    /// Generates every record into `path` (format from the extension when
    /// not given). Replaces an existing file only on success.
    @discardableResult
    public func write(to path: String, format: FixtureFormat? = nil) throws(FixtureError) -> FixtureSummary {
        guard let format = format ?? FixtureFormat(path: path) else {
            throw FixtureError(.output, "cannot tell the output format from '\(path)'; say --format sqlite|json|ndjson|csv|sql|coredata",
                               at: FixtureLocation(file: path))
        }
        let fm = FileManager.default
        let url = URL(fileURLWithPath: path)
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).partial-\(ProcessInfo.processInfo.processIdentifier)").path
        func cleanUp() {
            PartialFiles.remove(temporary)
            PartialFiles.unregister(temporary)
        }
        // Temporaries of killed runs go first; this run's own is removed on
        // any signal that can be caught (PartialFiles.swift).
        PartialFiles.removeStale(besides: url)
        PartialFiles.remove(temporary)
        PartialFiles.register(temporary)
        do {
            if format == .coredata {
                let summary = try writeCoreData(temporary: temporary)
                if fm.fileExists(atPath: path) { try fm.removeItem(atPath: path) }
                try fm.moveItem(atPath: temporary, toPath: path)
                cleanUp()
                return summary
            }
            var stream = records()
            guard let plan = stream.plan else { _ = try stream.next(); return FixtureSummary() }
            var summary = FixtureSummary()
            var perEntity = [Int](repeating: 0, count: plan.entities.count)
            let writer: FixtureWriter = switch format {
            case .sqlite: try SQLiteFixtureWriter(path: temporary, plan: plan)
            case .json: try JSONFixtureWriter(path: temporary, lines: false)
            case .ndjson: try JSONFixtureWriter(path: temporary, lines: true)
            case .csv: try CSVFixtureWriter(folder: temporary)
            case .sql: try SQLFixtureWriter(path: temporary, plan: plan)
            case .coredata: preconditionFailure("written above")
            }
            do {
                while let record = try stream.next() {
                    try writer.write(record)
                    switch record {
                    case .object(let o): perEntity[o.entityIndex] += 1
                    case .link: summary.links += 1
                    }
                }
                try writer.finish()
                for (i, entity) in plan.entities.enumerated() { summary.objects[entity.entity.name] = perEntity[i] }
            } catch {
                try? writer.finish()
                throw error
            }
            if fm.fileExists(atPath: path) { try fm.removeItem(atPath: path) }
            try fm.moveItem(atPath: temporary, toPath: path)
            cleanUp()
            return summary
        } catch let error as FixtureError {
            cleanUp()
            throw error
        } catch {
            cleanUp()
            throw FixtureError(.output, "writing failed: \(error)", at: FixtureLocation(file: path))
        }
    }
}

/// Bytes to a file through a 1 MB buffer.
final class ByteWriter {
    private let handle: FileHandle
    private var buffer: [UInt8] = []

    init(path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil), let h = FileHandle(forWritingAtPath: path) else {
            throw FixtureError(.output, "cannot create the file", at: FixtureLocation(file: path))
        }
        handle = h
        buffer.reserveCapacity(1 << 20)
    }

    @inline(__always)
    func write(_ s: String) {
        buffer.append(contentsOf: s.utf8)
        if buffer.count >= 1 << 20 { flush() }
    }

    func flush() {
        guard !buffer.isEmpty else { return }
        handle.write(Data(buffer))
        buffer.removeAll(keepingCapacity: true)
    }

    func close() throws {
        flush()
        try handle.close()
    }
}
