// Which model reads a Core Data store when the user names a model file. A
// `.xcdatamodeld` holds many versions and the store was written by one of
// them: the version whose `userDefinedModelVersionIdentifier` is among the
// store's `NSStoreModelVersionIdentifiers` when the app set them; else the
// version whose entity version hashes (CoreDataVersionHash) equal the
// store's, as Core Data itself chooses — the current one first, another
// with a warning; else the bundle's current version when its entities,
// tables and columns match the store; else the newest version that
// matches, with a warning naming what the current one lacks. Any other
// model file is read as it is and checked the same way.
import Foundation
import QuarryModel

struct ModelChoice {
    let model: Model
    let views: CoreDataViews
    /// Where the model came from, for the user.
    let source: String
    var warnings: [String] = []

    static func choose(modelPath: String, schema: CoreDataSchema) throws -> ModelChoice {
        guard modelPath.hasSuffix(".xcdatamodeld") else {
            let model = try ModelReader.read(from: modelPath)
            let renames = RenamingIdentifiers.beside(modelFile: modelPath)
            return ModelChoice(model: model, views: try CoreDataViews(model: model, schema: schema, renames: renames), source: modelPath)
        }
        let current = try ModelReader.read(from: modelPath)
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: modelPath)) ?? [])
            .filter { $0.hasSuffix(".xcdatamodel") }
            .sorted { $0.compare($1, options: .numeric) == .orderedAscending }
        var models: [(name: String, model: Model, identifier: String?, renames: RenamingIdentifiers)] = []
        for v in versions {
            let folder = modelPath + "/" + v
            guard let model = try? ModelReader.read(from: folder) else { continue }
            let contents = (try? String(contentsOfFile: folder + "/contents", encoding: .utf8)) ?? ""
            models.append((String(v.dropLast(".xcdatamodel".count)), model, identifier(in: contents), RenamingIdentifiers.fromXML(contents)))
        }
        let currentVersion = models.first { $0.model == current }
        let currentName = currentVersion?.name ?? "current"
        if let named = models.first(where: { $0.identifier.map(schema.metadata.versionIdentifiers.contains) ?? false }) {
            return ModelChoice(model: named.model, views: try CoreDataViews(model: named.model, schema: schema, renames: named.renames),
                               source: "version \(named.name) of \(modelPath) (the store's version identifier \(named.identifier!))")
        }
        // Core Data's own test: every entity's version hash equal (computed
        // only when the scheme covers every entity of the version).
        func hashesMatch(_ model: Model) -> Bool {
            !schema.metadata.versionHashes.isEmpty && CoreDataVersionHash.coveredHashes(model) == schema.metadata.versionHashes
        }
        if let hashed = models.first(where: { $0.model == current && hashesMatch($0.model) })
            ?? models.reversed().first(where: { hashesMatch($0.model) }) {
            var warnings: [String] = []
            if hashed.model != current {
                let currentHashes = CoreDataVersionHash.entityHashes(current)
                let differing = Set(schema.metadata.versionHashes.keys).union(currentHashes.keys)
                    .filter { currentHashes[$0]?.hash != schema.metadata.versionHashes[$0] }.sorted()
                warnings.append("the current version \(currentName) does not match the store (entity version hashes differ: \(differing.joined(separator: ", "))); read with version \(hashed.name), whose entity version hashes equal the store's")
            }
            return ModelChoice(model: hashed.model, views: try CoreDataViews(model: hashed.model, schema: schema, renames: hashed.renames),
                               source: "version \(hashed.name) of \(modelPath) (its entity version hashes equal the store's)",
                               warnings: warnings)
        }
        let currentError: Error
        do {
            return ModelChoice(model: current, views: try CoreDataViews(model: current, schema: schema,
                                                                        renames: currentVersion?.renames ?? RenamingIdentifiers()),
                               source: "version \(currentName) of \(modelPath) (current)")
        } catch { currentError = error }
        for candidate in models.reversed() where candidate.model != current {
            guard let views = try? CoreDataViews(model: candidate.model, schema: schema, renames: candidate.renames) else { continue }
            return ModelChoice(model: candidate.model, views: views, source: "version \(candidate.name) of \(modelPath)",
                               warnings: ["the current version \(currentName) does not match the store (\(currentError)); read with version \(candidate.name), whose entities and columns match"])
        }
        throw currentError
    }

    /// `userDefinedModelVersionIdentifier="…"` of a `contents` XML.
    static func identifier(in contents: String) -> String? {
        guard let range = contents.range(of: "userDefinedModelVersionIdentifier=\"") else { return nil }
        let rest = contents[range.upperBound...]
        guard let end = rest.firstIndex(of: "\"") else { return nil }
        let value = String(rest[..<end])
        return value.isEmpty ? nil : value
    }
}
