// The real-world Core Data models (../shared/corpus/models/*.xml, from public
// apps; see that folder's README): every one loads — converted, clamped and
// warned about where Core Data's model compiler accepts odd text — except
// exactly the files in `refused`, each a real defect Core Data refuses too
// (README, "The real-world corpus"). Every fetch request template, fetched
// property predicate and derivation inside the loaded models parses and
// prints back to the same tree.
//
// Without ../shared/corpus (a clone elsewhere) the tests are skipped, and say
// so on the console. The corpus is read in place, never copied.
import Foundation
import QuarrySyntax
import Testing
@testable import QuarryModel

enum ModelCorpus {
    static let directory = Fixtures.packageRoot.appendingPathComponent("../shared/corpus/models").standardizedFileURL

    static var available: Bool { FileManager.default.fileExists(atPath: directory.path) }

    /// Every model file, sorted by name.
    static func files() -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".xml") }.sorted().map { directory.appendingPathComponent($0) }
    }

    /// Model files Quarry refuses, with the defect Core Data refuses too
    /// (file name → the error's kind). Empty: every corpus model loads.
    static let refused: [String: ModelErrorKind] = [:]
}

@Suite struct CorpusModelTests {
    @Test(.enabled(if: !ModelCorpus.available))
    func corpusAbsent() {
        print("SKIPPED CorpusModelTests: \(ModelCorpus.directory.path) is absent; the real-world models are not checked")
    }

    /// Loads every model once; the tests below share the result.
    static let loaded: [(file: String, result: Result<Model, ModelError>)] = ModelCorpus.files().map { url in
        do throws(ModelError) {
            return (url.lastPathComponent, .success(try ModelReader.read(from: url.path)))
        } catch {
            return (url.lastPathComponent, .failure(error))
        }
    }

    @Test(.enabled(if: ModelCorpus.available))
    func everyModelLoadsButTheListedRefusals() throws {
        let loaded = Self.loaded
        try #require(loaded.count > 300, "the corpus should hold over three hundred models")
        var ok = 0
        var warnings = 0
        var warnedModels = 0
        for (file, result) in loaded {
            switch result {
            case .success(let model):
                ok += 1
                warnings += model.warnings.count
                if !model.warnings.isEmpty { warnedModels += 1 }
                if let kind = ModelCorpus.refused[file] {
                    Issue.record("\(file) loads now, but is listed as refused (\(kind)): update the list and the README")
                }
            case .failure(let error):
                if let kind = ModelCorpus.refused[file] {
                    #expect(error.kind == kind, "\(file): refused for another reason than listed: \(error)")
                } else {
                    Issue.record("\(file) does not load: \(error)")
                }
            }
        }
        print("corpus models: loaded \(ok) / \(loaded.count); \(warnings) warnings in \(warnedModels) models")
    }

    /// Every warning is placed in its file and names what it did.
    @Test(.enabled(if: ModelCorpus.available))
    func warningsArePlaced() {
        for case (let file, .success(let model)) in Self.loaded {
            for w in model.warnings {
                #expect(w.line != nil, "\(file): a warning without a line: \(w)")
                #expect(w.description.contains(": warning: "))
            }
        }
    }

    @Test(.enabled(if: ModelCorpus.available))
    func everyStoredPredicateParsesAndPrintsBack() throws {
        var templates = 0, fetched = 0, derivations = 0, texts = 0, parsed = 0
        for case (let file, .success(let model)) in Self.loaded {
            var stored: [(what: String, text: String, isExpression: Bool)] = []
            for t in model.fetchRequestTemplates {
                templates += 1
                if let p = t.predicateFormat { stored.append(("fetch request \(t.name)", p, false)) }
            }
            for e in model.entities {
                for f in e.fetchedProperties {
                    fetched += 1
                    if let p = f.predicateFormat { stored.append(("fetched property \(e.name).\(f.name)", p, false)) }
                }
                for a in e.attributes {
                    if let d = a.derivation {
                        derivations += 1
                        stored.append(("derivation of \(e.name).\(a.name)", d, true))
                    }
                }
            }
            for (what, text, isExpression) in stored {
                texts += 1
                do {
                    if isExpression {
                        let tree = try Parser.parseExpression(text)
                        let printed = Printer.format(tree)
                        let same = try Parser.parseExpression(printed) == tree
                        #expect(same, "\(file): \(what) prints as \(printed), another tree")
                        if same { parsed += 1 }
                    } else {
                        let tree = try Parser.parsePredicate(text)
                        let printed = Printer.format(tree)
                        let same = try Parser.parsePredicate(printed) == tree
                        #expect(same, "\(file): \(what) prints as \(printed), another tree")
                        if same { parsed += 1 }
                    }
                } catch {
                    Issue.record("\(file): \(what) does not parse: \(text) — \(error)")
                }
            }
        }
        print("corpus models: \(templates) fetch request templates, \(fetched) fetched properties, \(derivations) derivations; "
              + "\(parsed) / \(texts) stored predicates and expressions parse and print back to the same tree")
        #expect(texts > 0)
    }
}
