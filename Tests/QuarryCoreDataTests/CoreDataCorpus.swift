// The real Core Data stores of ../shared/corpus/stores (see its MANIFEST and
// stores.json), for the tests: each store is copied with its `-wal`/`-shm`
// to a scratch folder before anything opens it, its files' bytes are kept
// to compare afterwards, and a second, private copy answers the hand-written
// SQL the tests compare Quarry with. Without the corpus the tests say so
// loudly and check nothing else.
import Foundation
import QuarryFixtures
import QuarrySQLite
import Testing

struct CorpusStore: Sendable, CustomTestStringConvertible {
    let store: String
    let model: String?
    let modelCache: Bool
    let identifiers: [String]
    let how: String
    var testDescription: String { store }

    /// "structure (mismatched columns 3)" → 3; 0 when paired by identifier.
    var mismatchedColumns: Int {
        guard let range = how.range(of: "mismatched columns ") else { return 0 }
        return Int(how[range.upperBound...].prefix { $0.isNumber }) ?? 0
    }
}

enum CoreDataCorpus {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../../shared/corpus").standardized
    static var storesFolder: URL { root.appendingPathComponent("stores") }
    static var modelsFolder: URL { root.appendingPathComponent("models") }

    static let stores: [CorpusStore] = {
        guard let data = try? Data(contentsOf: storesFolder.appendingPathComponent("stores.json")),
              let rows = try? JSONSerialization.jsonObject(with: data) as? [[String: Any]] else {
            print("SKIPPED QuarryCoreDataTests corpus: \(storesFolder.path) is absent; the real Core Data stores are NOT checked")
            return []
        }
        return rows.compactMap { row in
            guard let store = row["store"] as? String else { return nil }
            return CorpusStore(store: store, model: row["model"] as? String, modelCache: row["modelcache"] as? Bool ?? false,
                               identifiers: row["identifiers"] as? [String] ?? [], how: row["how"] as? String ?? "")
        }
    }()

    static func modelPath(_ s: CorpusStore) -> String? { s.model.map { modelsFolder.appendingPathComponent($0).path } }
}

/// A folder of its own, removed afterwards.
final class Scratch {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-coredata-test-\(UUID().uuidString)", isDirectory: true)
    init() { try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }
    func path(_ name: String) -> String { url.appendingPathComponent(name).path }
    deinit { try? FileManager.default.removeItem(at: url) }

    /// Copies a store with its `-wal` and `-shm` here under `name`.
    func copyStore(_ original: String, as name: String) throws -> String {
        let path = self.path(name)
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: original + suffix) {
            try FileManager.default.copyItem(atPath: original + suffix, toPath: path + suffix)
        }
        return path
    }

    /// Every file of the folder (hidden ones too) with its bytes.
    func snapshot() throws -> [String: Data] {
        var files: [String: Data] = [:]
        let e = FileManager.default.enumerator(atPath: url.path)
        while let name = e?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            let full = url.appendingPathComponent(name).path
            if FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory), !isDirectory.boolValue {
                files[name] = try Data(contentsOf: URL(fileURLWithPath: full))
            }
        }
        return files
    }
}

/// The hand-written side: plain SQL on a private copy of the store.
struct Oracle {
    let connection: SQLiteConnection
    /// Entity name → (Z_ENT, Z_SUPER).
    let entities: [String: (number: Int64, parent: Int64)]

    init(copyOf path: String, in scratch: Scratch) throws {
        let copy = try scratch.copyStore(path, as: "oracle.sqlite")
        connection = try SQLiteConnection(path: copy)
        var entities: [String: (Int64, Int64)] = [:]
        for row in try connection.query("SELECT Z_ENT, Z_NAME, Z_SUPER FROM Z_PRIMARYKEY WHERE Z_ENT < 16000") {
            if case .int(let n) = row[0], case .string(let name) = row[1], case .int(let p) = row[2] { entities[name] = (n, p) }
        }
        self.entities = entities
    }

    /// The name of the root entity of `entity`'s hierarchy (its table is
    /// `Z` + that name upper-cased).
    func rootName(of entity: String) -> String? {
        guard var root = entities[entity] else { return nil }
        var rootName = entity
        while root.parent != 0, let up = entities.first(where: { $0.value.number == root.parent }) { root = up.value; rootName = up.key }
        return rootName
    }

    /// `SELECT COUNT(*) FROM Z<ROOT> WHERE Z_ENT IN (the entity and its sub-entities)`.
    func count(_ entity: String) throws -> Int {
        guard let e = entities[entity], let rootName = rootName(of: entity) else { return -1 }
        var family: Set<Int64> = [e.number]
        var grew = true
        while grew {
            grew = false
            for (_, x) in entities where family.contains(x.parent) && !family.contains(x.number) { family.insert(x.number); grew = true }
        }
        let list = family.sorted().map(String.init).joined(separator: ", ")
        let value = try connection.scalar("SELECT COUNT(*) FROM \"Z\(rootName.uppercased())\" WHERE Z_ENT IN (\(list))")
        if case .int(let n) = value { return Int(n) }
        return -1
    }
}

/// A seeded generator (QuarryFixtures' SplitMix64): the same predicates every run.
struct SeededRandom: RandomNumberGenerator {
    var generator: SplitMix64
    init(state: UInt64) { generator = SplitMix64(seed: state) }
    mutating func next() -> UInt64 { generator.next() }
}
