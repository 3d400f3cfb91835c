// Opening a store whose saved model differs from the one given: the
// difference (ModelDifference.swift), then — by the caller's policy — a
// migration (Migration.swift) or a refusal that lists the changes. Stores
// whose saved model is unreadable, or that share no entity with the model
// (made for another model), are left to the schema check, as before.
import Foundation
import QuarryModel

extension SQLStore {
    /// The difference between the model saved in the store on `database`
    /// and `model`; nil when the store has no (readable) saved model.
    public static func difference(in database: any SQLDatabase, to model: Model, renames: [String: String] = [:]) -> ModelDifference? {
        guard let metadata = try? StoreMetadataRows.read(in: database) else { return nil }
        return difference(from: metadata, location: database.location, to: model, renames: renames)
    }

    /// As `difference(in:to:renames:)`, from the store's metadata rows.
    static func difference(from metadata: StoreMetadataRows, location: String, to model: Model,
                           renames: [String: String] = [:]) -> ModelDifference? {
        guard let saved = try? storedModel(from: metadata, location: location) else { return nil }
        return ModelDifference(from: saved, to: model, renames: renames)
    }

    /// Migrates (policy `.automatic`) or refuses (`.none`) a store whose
    /// saved model differs from `model` in what is stored. A difference in
    /// metadata only (validation rules, a default) opens as before; an
    /// automatic open also saves the new model then. Returns the migration
    /// run (its new layout and mapping are what the open goes on with), else nil.
    /// `metadata`: the store's metadata rows, read at the open; a migration
    /// updates them with the rows it saved.
    static func migrateIfNeeded(_ database: any SQLDatabase, to model: Model, modelFile: String?, policy: MigrationPolicy,
                                renames: [String: String] = [:], metadata: inout StoreMetadataRows) throws -> Migration? {
        guard let difference = difference(from: metadata, location: database.location, to: model, renames: renames), !difference.isEmpty,
              !difference.sharesNoEntity else { return nil }
        switch policy {
        case .none:
            if difference.altersStorage {
                throw StoreError.migrationNeeded(location: database.location, changes: difference.changes.map(\.description))
            }
            return nil
        case .automatic:
            return try migrate(database, difference, modelFile: modelFile, metadata: &metadata)
        }
    }

    /// Plans and runs the migration of `difference`, saving the new model
    /// (the model file's own text when it is a single file, as a new store
    /// does) and its layout, built from the one the store saved (SQLStore+Layout.swift).
    @discardableResult
    public static func migrate(_ database: any SQLDatabase, _ difference: ModelDifference, modelFile: String?) throws -> Migration {
        var metadata = try StoreMetadataRows.read(in: database)
        return try migrate(database, difference, modelFile: modelFile, metadata: &metadata)
    }

    /// As `migrate(_:_:modelFile:)`, from the store's metadata rows, which
    /// it updates with those the migration saved.
    static func migrate(_ database: any SQLDatabase, _ difference: ModelDifference, modelFile: String?,
                        metadata: inout StoreMetadataRows) throws -> Migration {
        let migration = try Migration(difference, dialect: database.dialect, location: database.location,
                                      layout: try storedLayout(from: metadata, location: database.location))
        let source = modelFile.flatMap(modelSource) ?? (ModelArchive.json(difference.new), "json")
        try migration.run(on: database, location: database.location, savedModel: source.text, format: source.format)
        metadata.apply(migration.metadataRows(savedModel: source.text, format: source.format))
        return migration
    }
}
