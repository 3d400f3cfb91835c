// Choosing the model version of a `.xcdatamodeld` for a store: the version
// whose identifier the store's metadata names, not the bundle's current
// one — checked on objc.io's Moody stores with a bundle assembled (in a
// scratch folder) from the corpus's Moody model versions, current = Moody 6.
// With no identifier to go by, the version whose entity version hashes
// equal the store's; then the current version when it matches, else a
// matching one with a warning. Skipped loudly without the corpus.
import Foundation
import QuarryCoreData
import Testing

@Suite struct ModelVersionTests {
    static let versions = ["Moody", "Moody 2", "Moody 3", "Moody 4", "Moody 5", "Moody 6"]
    static var available: Bool { FileManager.default.fileExists(atPath: CoreDataCorpus.modelsFolder.appendingPathComponent("objcio__core-data__Moody__Moody.xml").path) }

    /// Moody.xcdatamodeld with the six versions, current "Moody 6".
    static func bundle(in scratch: Scratch, current: String = "Moody 6", stripIdentifiers: Bool = false) throws -> String {
        let bundle = scratch.path("Moody.xcdatamodeld")
        for v in versions {
            let folder = bundle + "/\(v).xcdatamodel"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let source = CoreDataCorpus.modelsFolder.appendingPathComponent("objcio__core-data__Moody__\(v.replacingOccurrences(of: " ", with: "_")).xml")
            var text = try String(contentsOf: source, encoding: .utf8)
            if stripIdentifiers { text = text.replacingOccurrences(of: #"userDefinedModelVersionIdentifier="[^"]*""#, with: "", options: .regularExpression) }
            try text.write(toFile: folder + "/contents", atomically: true, encoding: .utf8)
        }
        try """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0"><dict><key>_XCCurrentVersionName</key><string>\(current).xcdatamodel</string></dict></plist>
        """.write(toFile: bundle + "/.xccurrentversion", atomically: true, encoding: .utf8)
        return bundle
    }

    @Test(.enabled(if: !available))
    func corpusAbsent() { print("SKIPPED ModelVersionTests: the corpus's Moody models are absent") }

    @Test(.enabled(if: available), arguments: [("Moody_2", "Moody 2"), ("Moody_3", "Moody 3"), ("Moody_4", "Moody 4"), ("Moody_5", "Moody 5")])
    func theVersionTheStoreNamesIsChosen(store: String, version: String) throws {
        let scratch = Scratch()
        let bundle = try Self.bundle(in: scratch)
        let path = try scratch.copyStore(CoreDataCorpus.storesFolder.appendingPathComponent("objcio__core-data/Migrations__MigrationsTests__\(store).moody").path, as: "Moody.sqlite")
        let opened = try CoreDataStore.open(path: path, modelPath: bundle)
        #expect(opened.modelSource.contains("version \(version) of"), "\(opened.modelSource)")
        #expect(opened.warnings.isEmpty)
        opened.store.database.close()
    }

    /// Without identifiers, Core Data's own test: the version whose entity
    /// version hashes (CoreDataVersionHash) equal the store's — Moody.moody
    /// too, which the corpus could pair only by structure.
    @Test(.enabled(if: available), arguments: [("Moody", "Moody"), ("Moody_2", "Moody 2"), ("Moody_3", "Moody 3"),
                                                ("Moody_4", "Moody 4"), ("Moody_5", "Moody 5")])
    func withoutIdentifiersTheVersionWithTheStoresHashesIsChosen(store: String, version: String) throws {
        let scratch = Scratch()
        let bundle = try Self.bundle(in: scratch, stripIdentifiers: true)
        let path = try scratch.copyStore(CoreDataCorpus.storesFolder.appendingPathComponent("objcio__core-data/Migrations__MigrationsTests__\(store).moody").path, as: "Moody.sqlite")
        let opened = try CoreDataStore.open(path: path, modelPath: bundle)
        #expect(opened.modelSource.contains("version \(version) of") && opened.modelSource.contains("entity version hashes equal"),
                "\(opened.modelSource)")
        // Not the current version (Moody 6): said so, naming what differs.
        #expect(opened.warnings.count == 1 && opened.warnings[0].contains("entity version hashes differ"), "\(opened.warnings)")
        opened.store.database.close()
    }

    /// Without identifiers: Moody 5's store does not match the current
    /// Moody 6, so the newest version that matches is taken, with a warning.
    @Test(.enabled(if: available))
    func withoutIdentifiersAMatchingVersionIsChosenWithAWarning() throws {
        let scratch = Scratch()
        let bundle = try Self.bundle(in: scratch, stripIdentifiers: true)
        let path = try scratch.copyStore(CoreDataCorpus.storesFolder.appendingPathComponent("objcio__core-data/Migrations__MigrationsTests__Moody_5.moody").path, as: "Moody.sqlite")
        let opened = try CoreDataStore.open(path: path, modelPath: bundle)
        #expect(opened.modelSource.contains("version Moody 5 of"), "\(opened.modelSource)")
        #expect(opened.warnings.count == 1)
        #expect(opened.warnings.first?.contains("the current version Moody 6 does not match the store") == true, "\(opened.warnings)")
        #expect(opened.warnings.first?.contains("Continent") == true)
        opened.store.database.close()
    }
}
