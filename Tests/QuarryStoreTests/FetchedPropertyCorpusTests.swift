// The fetched properties of the real-world corpus (../shared/corpus/models):
// each predicate binds — its own keys against the destination entity,
// `$FETCH_SOURCE.…` against the entity that owns the property — and runs,
// on an empty SQLite store of the model, for a new object of that entity.
// Without the corpus the test is skipped and says so on the console.
import Foundation
import QuarryBinding
import Testing
@testable import QuarryStore

@Suite struct FetchedPropertyCorpusTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../../shared/corpus/models").standardizedFileURL

    /// (file, entity, fetched property) of every fetched property in the corpus.
    static func properties() -> [(String, Model, Entity, FetchedProperty)] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        var found: [(String, Model, Entity, FetchedProperty)] = []
        for name in names.sorted() where name.hasSuffix(".xml") {
            let path = directory.appendingPathComponent(name).path
            // Only files that mention one are read (the corpus has hundreds).
            guard let text = try? String(contentsOfFile: path, encoding: .utf8), text.contains("<fetchedProperty"),
                  let model = try? ModelReader.read(from: path) else { continue }
            for e in model.entities { for f in e.fetchedProperties { found.append((name, model, e, f)) } }
        }
        return found
    }

    @Test func fetchedPropertiesOfTheCorpusBindAndRun() throws {
        guard FileManager.default.fileExists(atPath: Self.directory.path) else {
            print("SKIPPED FetchedPropertyCorpusTests: \(Self.directory.path) is absent; the corpus's fetched properties are not checked")
            return
        }
        let all = Self.properties()
        #expect(all.count >= 5, "the corpus had 5 fetched properties when this test was written")
        for (file, model, entity, f) in all {
            if let p = f.predicate {
                #expect(throws: Never.self, "\(file) \(entity.name).\(f.name)") {
                    try PredicateBinder(binder: KeyPathBinder(model: model), entity: f.destination,
                                        variables: ["FETCH_SOURCE": entity.name]).check(p)
                }
            }
            guard !entity.isAbstract else { continue }
            let context = Context(store: try SQLStore(path: ":memory:", model: model))
            let source = try context.insert(entity.name)
            #expect(throws: Never.self, "\(file) \(entity.name).\(f.name)") { _ = try source.fetchedObjects(forKey: f.name) }
        }
    }
}
