// Core Data's entity version hashes (CoreDataVersionHash.swift) against the
// hashes Core Data itself wrote into the corpus stores' metadata: computed
// from the model cached in each store (by definition the model that wrote
// it) and from the XML model the corpus pairs with the store. Every entity
// the scheme covers must hash exactly as stored; what it does not cover is
// listed with the reason, and the counts are printed. Also: SHA-256/512
// against FIPS 180-4's vectors, and one hash published in CoreStore's
// documentation (computed by Core Data on Apple's side, not corpus data).
import Foundation
import QuarryModel
import QuarrySQLite
import QuarryStore
import Testing
@testable import QuarryCoreData

@Suite("Core Data version hashes", .serialized)
struct VersionHashTests {
    @Test(.enabled(if: CoreDataCorpus.stores.isEmpty))
    func corpusAbsent() {
        print("SKIPPED VersionHashTests corpus: \(CoreDataCorpus.storesFolder.path) is absent; version hashes are NOT checked against real stores")
    }

    @Test func sha2KnownAnswers() {
        func hex(_ b: [UInt8]) -> String { b.map { String(format: "%02x", $0) }.joined() }
        #expect(hex(SHA2.sha256(Array("abc".utf8))) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(hex(SHA2.sha256([])) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        // Two blocks (56 bytes leave no room for the length in the first).
        #expect(hex(SHA2.sha256(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(hex(SHA2.sha512(Array("abc".utf8)))
                == "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f")
        #expect(hex(SHA2.sha512([])).hasPrefix("cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce"))
    }

    /// CoreStore's VersionLock documentation prints the version hash Core
    /// Data gave its sample entity `Person` (name: required String; pet:
    /// optional to-one Animal, inverse master) as four little-endian words.
    @Test func coreStoreDocumentedHash() {
        var pet = Relationship(name: "pet", destination: "Animal", inverse: "master")
        pet.declaredMinCount = 0
        pet.declaredMaxCount = 1
        let model = Model(entities: [
            Entity(name: "Person", attributes: [Attribute(name: "name", type: .string, isOptional: false)], relationships: [pet]),
            Entity(name: "Animal", relationships: [Relationship(name: "master", destination: "Person", inverse: "pet")]),
        ])
        let words: [UInt64] = [0xae4060a59f990ef0, 0x8ac83a6e1411c130, 0xa29fea58e2e38ab6, 0x2071bb7e33d77887]
        let expected = words.flatMap { w in (0..<8).map { UInt8(truncatingIfNeeded: w >> UInt64(8 * $0)) } }
        #expect(CoreDataVersionHash.entityHashes(model)["Person"] == .hash(expected))
        // Any input changed changes it: the test can fail.
        var required = model
        required.entities[0].relationships[0].isOptional = false
        #expect(CoreDataVersionHash.entityHashes(required)["Person"] != .hash(expected))
    }

    /// Modifiers and the file's counts change the hash but not what the
    /// model means to Quarry (equality; see FileDetail).
    @Test func hashOnlyFactsChangeTheHashNotEquality() {
        let plain = Model(entities: [Entity(name: "A", attributes: [Attribute(name: "x", type: .string)],
                                            relationships: [Relationship(name: "b", destination: "A", isOptional: false)])])
        let before = CoreDataVersionHash.entityHashes(plain)["A"]
        var changes: [(String, (inout Model) -> Void)] = [
            ("entity modifier", { $0.entities[0].versionHashModifier = "v2" }),
            ("attribute modifier", { $0.entities[0].attributes[0].versionHashModifier = "v2" }),
            ("relationship modifier", { $0.entities[0].relationships[0].versionHashModifier = "v2" }),
            ("declared minCount", { $0.entities[0].relationships[0].declaredMinCount = 1 }),
        ]
        changes.append(("declared maxCount", { $0.entities[0].relationships[0].declaredMaxCount = 2 }))
        for (what, change) in changes {
            var changed = plain
            change(&changed)
            #expect(changed == plain, "\(what)")
            #expect(CoreDataVersionHash.entityHashes(changed)["A"] != before, "\(what)")
        }
    }

    @Test func derivedAttributesAreReportedNotGuessed() {
        var count = Attribute(name: "count", type: .integer64)
        count.derivation = "items.@count"
        let model = Model(entities: [Entity(name: "A", attributes: [count]), Entity(name: "B", parent: "A")])
        let hashes = CoreDataVersionHash.entityHashes(model)
        #expect(hashes["A"]?.hash == nil && hashes["B"]?.hash == nil)
        #expect(CoreDataVersionHash.coveredHashes(model) == nil)
    }

    /// One store's metadata: entity hashes and the digest, when present.
    private func metadata(_ s: CorpusStore, scratch: Scratch) throws -> (hashes: [String: [UInt8]], digest: String?, cache: [UInt8]?) {
        let path = try scratch.copyStore(CoreDataCorpus.storesFolder.appendingPathComponent(s.store).path, as: "App.sqlite")
        let connection = try SQLiteConnection(path: "file:\(SQLiteFilePath.uriPath(path))?immutable=1",
                                              options: .init(readOnly: true, create: false))
        defer { connection.close() }
        guard let row = try connection.query("SELECT Z_PLIST FROM Z_METADATA LIMIT 1").first, case .data(let bytes) = row[0],
              case .dictionary(let stored)? = try BinaryPropertyList.read(bytes)["NSStoreModelVersionHashes"] else { return ([:], nil, nil) }
        var hashes: [String: [UInt8]] = [:]
        for (name, value) in stored { if case .data(let h) = value { hashes[name] = h } }
        let digest = try BinaryPropertyList.read(bytes)["NSStoreModelVersionHashesDigest"]?.string
        var cache: [UInt8]?
        // Framework versions before 637 kept no cached model (no table).
        if let row = try? connection.query("SELECT Z_CONTENT FROM Z_MODELCACHE LIMIT 1").first, case .data(let b) = row[0] { cache = b }
        return (hashes, digest, cache)
    }

    /// Stored property names (not transient), inherited ones included.
    private func storedPropertyNames(_ entity: String, in model: Model) -> Set<String> {
        guard let e = model.entity(named: entity) else { return [] }
        return Set(e.allAttributes(in: model).filter { !$0.isTransient }.map(\.name)
                   + e.allRelationships(in: model).filter { !$0.isTransient }.map(\.name))
    }

    @Test(.enabled(if: !CoreDataCorpus.stores.isEmpty))
    func corpusHashesAreReproduced() throws {
        var cache = (matched: 0, total: 0, stores: 0)
        var xml = (matched: 0, total: 0, stores: 0)
        var digests = (matched: 0, total: 0)
        var notCovered: [String] = []
        for s in CoreDataCorpus.stores {
            let scratch = Scratch()
            let stored = try metadata(s, scratch: scratch)
            guard !stored.hashes.isEmpty else { continue }
            if let digest = stored.digest {
                digests.total += 1
                if CoreDataVersionHash.digest(stored.hashes) == digest { digests.matched += 1 }
            }

            // The cached model wrote the store: every covered entity must match.
            var cached: Model?
            if let blob = stored.cache {
                let full = try CachedModelReader.readFull(blob)
                cached = full.model
                cache.stores += 1
                for (name, outcome) in CoreDataVersionHash.entityHashes(full.model, derivedAttributes: full.derivedAttributes) {
                    guard let want = stored.hashes[name] else { Issue.record("\(s.store): \(name) has no stored hash"); continue }
                    cache.total += 1
                    switch outcome {
                    case .hash(let got):
                        #expect(got == want, "\(s.store): \(name) from the cached model")
                        if got == want { cache.matched += 1 }
                    case .notCovered(let why):
                        notCovered.append("\(s.store): \(name) (cached model): \(why)")
                    }
                }
            }

            // The paired XML model: trusted when paired by version identifier
            // (or, paired by structure, when its hashes all match). An entity
            // may still differ when the model file was edited after the
            // store was written; that is accepted only when the file's entity
            // has other stored properties than the store's own cached model.
            guard let modelPath = CoreDataCorpus.modelPath(s) else { continue }
            let model = try ModelReader.read(from: modelPath)
            let outcomes = CoreDataVersionHash.entityHashes(model)
            let byIdentifier = !s.identifiers.isEmpty && s.how.hasPrefix("NSStoreModelVersionIdentifiers")
            let allMatch = stored.hashes.allSatisfy { outcomes[$0.key]?.hash == $0.value }
            guard byIdentifier || allMatch else {
                print("VERSIONHASH \(s.store): paired by \(s.how), hashes differ: pairing not trusted, skipped")
                continue
            }
            xml.stores += 1
            for (name, want) in stored.hashes {
                xml.total += 1
                switch outcomes[name] {
                case .hash(let got)?:
                    if got == want { xml.matched += 1; continue }
                    let edited = cached.map { storedPropertyNames(name, in: $0) != storedPropertyNames(name, in: model) } ?? false
                    #expect(edited, "\(s.store): \(name) from \(s.model!) differs from the stored hash, and the file's entity has the store's properties")
                    if edited { notCovered.append("\(s.store): \(name) (\(s.model!)): the model file's entity has other properties than the store's cached model") }
                case .notCovered(let why)?:
                    notCovered.append("\(s.store): \(name) (\(s.model!)): \(why)")
                case nil:
                    Issue.record("\(s.store): \(name) is not in \(s.model!)")
                }
            }
        }
        print("VERSIONHASH cached models: \(cache.matched)/\(cache.total) entity hashes equal in \(cache.stores) stores")
        print("VERSIONHASH paired XML models: \(xml.matched)/\(xml.total) entity hashes equal in \(xml.stores) stores")
        print("VERSIONHASH digests: \(digests.matched)/\(digests.total)")
        for line in notCovered { print("VERSIONHASH not covered: \(line)") }
        #expect(digests.matched == digests.total)
        // The corpus has these (issue 21's MANIFEST): a change in it or in the
        // readers that loses stores must be noticed, not pass quietly.
        #expect(cache.stores >= 60 && xml.stores >= 60 && digests.total >= 17)
    }
}
