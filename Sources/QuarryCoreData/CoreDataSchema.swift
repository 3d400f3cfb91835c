// What a Core Data store's file says about itself, read once at open and
// never assumed: the entity numbers and hierarchy from `Z_PRIMARYKEY`, every
// table's real name and columns from `sqlite_master` and `PRAGMA
// table_info`, and the metadata plist (`Z_METADATA.Z_PLIST`: the model
// version identifiers, the framework version, the store UUID). The mapping
// (CoreDataViews.swift) looks names up here, case-insensitively as SQLite
// does, and refuses what it cannot find.
import QuarryModel
import QuarrySQLite

struct CoreDataSchema {
    struct Table {
        let name: String
        /// Column names by their upper-cased form.
        let columns: [String: String]
    }
    /// Entity name → (Z_ENT, parent's Z_ENT or 0), user entities only
    /// (system tables such as persistent history number from 16000).
    let entities: [String: (number: Int, parent: Int)]
    /// Tables by upper-cased name.
    let tables: [String: Table]
    let metadata: StoreMetadata

    init(connection: SQLiteConnection) throws {
        var entities: [String: (Int, Int)] = [:]
        for row in try connection.query("SELECT Z_ENT, Z_NAME, Z_SUPER FROM main.Z_PRIMARYKEY") {
            guard case .int(let number) = row[0], case .string(let name) = row[1], number < 16000 else { continue }
            var parent = 0
            if case .int(let p) = row[2] { parent = Int(p) }
            entities[name] = (Int(number), parent)
        }
        self.entities = entities
        var tables: [String: Table] = [:]
        for row in try connection.query("SELECT name FROM main.sqlite_master WHERE type = 'table'") {
            guard case .string(let name) = row[0] else { continue }
            var columns: [String: String] = [:]
            for info in try connection.query("SELECT name FROM pragma_table_info(?, 'main')", [.string(name)]) {
                if case .string(let c) = info[0] { columns[c.uppercased()] = c }
            }
            tables[name.uppercased()] = Table(name: name, columns: columns)
        }
        self.tables = tables
        var plist: PropertyListValue?
        if let row = try connection.query("SELECT Z_PLIST FROM main.Z_METADATA LIMIT 1").first, case .data(let bytes) = row[0] {
            plist = try? BinaryPropertyList.read(bytes)
        }
        var uuid: String?
        if let row = try connection.query("SELECT Z_UUID FROM main.Z_METADATA LIMIT 1").first, case .string(let s) = row[0] { uuid = s }
        metadata = StoreMetadata(plist: plist, uuid: uuid)
    }

    func table(_ name: String) -> Table? { tables[name.uppercased()] }

    /// The entity name of a Z_ENT number.
    func entityName(number: Int) -> String? { entities.first { $0.value.number == number }?.key }
}

/// The store's metadata plist, as far as opening it needs.
public struct StoreMetadata: Sendable, Equatable {
    /// `NSStoreModelVersionIdentifiers`: the model version the store was
    /// written with, when the app set one.
    public let versionIdentifiers: [String]
    /// `NSPersistenceFrameworkVersion`.
    public let frameworkVersion: Int?
    /// `Z_METADATA.Z_UUID`, reported by Core Data as `NSStoreUUID`.
    public let uuid: String?
    /// Entity names that carry a version hash (`NSStoreModelVersionHashes`).
    public let hashedEntities: [String]
    /// The entity version hashes themselves (CoreDataVersionHash).
    public let versionHashes: [String: [UInt8]]

    init(plist: PropertyListValue?, uuid: String?) {
        versionIdentifiers = plist?["NSStoreModelVersionIdentifiers"]?.array?.compactMap(\.string) ?? []
        frameworkVersion = plist?["NSPersistenceFrameworkVersion"]?.int.map(Int.init)
        var versionHashes: [String: [UInt8]] = [:]
        if case .dictionary(let hashes)? = plist?["NSStoreModelVersionHashes"] {
            for (name, value) in hashes { if case .data(let h) = value { versionHashes[name] = h } }
            hashedEntities = hashes.keys.sorted()
        } else {
            hashedEntities = []
        }
        self.versionHashes = versionHashes
        self.uuid = uuid
    }
}
