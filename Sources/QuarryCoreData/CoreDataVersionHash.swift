// Core Data's entity version hashes (`NSStoreModelVersionHashes` in a
// store's Z_METADATA) and their digest (`NSStoreModelVersionHashesDigest`),
// computed from a Quarry `Model`. Apple documents the inputs, not the bytes;
// this byte layout was found by searching candidate layouts in Python
// against the hashes Core Data wrote into the real stores of
// ../shared/corpus (how: Scripts/research/coredata-version-hash.py), and
// it is checked against them (Tests/QuarryCoreDataTests/VersionHashTests.swift),
// plus one hash CoreStore's documentation publishes:
// - from the XML model paired with each store: 1,006 of 1,013 entity hashes
//   equal, in 64 stores (every wire-ios version, objc.io Moody, LoopKit,
//   CareKit, CoreDataPlus, Big Nerd Ranch, BookMigration). The 7 others are
//   one store (wire 2.65.0) whose model file gained two properties after the
//   store was written: its cached model hashes equal.
// - from the model cached in each store (Z_MODELCACHE): every entity of 66
//   stores but those with a derived attribute (below).
// - the digest: all 17 stores that carry one.
//
// The layout (all SHA-256; strings UTF-8 without terminator; integers
// 32-bit little-endian; flags one byte):
// - property: SHA-256(name, isOptional, isTransient, versionHashModifier?)
// - attribute: SHA-256(property hash, NSAttributeType code,
//   [1 if allowsExternalBinaryDataStorage], [1 if preservesValueInHistoryOnDeletion])
// - relationship: SHA-256(property hash, destination name, inverse name?,
//   maxCount, minCount, [1, 0 if ordered]) — the counts as the model file
//   wrote them (`Relationship.declaredMinCount`), 0 meaning unbounded
// - entity: SHA-256(name, isAbstract, parent's hash?, the hashes of every
//   non-transient property, inherited ones included, sorted by name, each
//   uniqueness constraint's names joined by "." sorted and concatenated,
//   versionHashModifier?)
// - digest: base64(SHA-512(for each entity sorted by name: name, hash))
//
// Not covered (the entity is reported, never guessed): derived attributes
// (no layout tried matched the 2 corpus entities that have one) and the
// entities below such an entity. Seen in no corpus store, so unverified:
// an entity-level versionHashModifier (appended last, like a property's),
// an attribute both external and history-preserving (order of the two
// flags), composite attributes (Quarry's model has none).
import Foundation
import QuarryModel

public enum CoreDataVersionHash {
    /// One entity's hash, or why Quarry does not compute it.
    public enum Outcome: Sendable, Equatable {
        case hash([UInt8])
        case notCovered(String)

        public var hash: [UInt8]? { if case .hash(let h) = self { return h } else { return nil } }
    }

    /// Every entity's outcome, by entity name. `derivedAttributes`
    /// ("Entity.attribute") names derived attributes the model does not mark
    /// as such: a model read from a store's cache keeps no derivation text.
    public static func entityHashes(_ model: Model, derivedAttributes: Set<String> = []) -> [String: Outcome] {
        var memo: [String: Outcome] = [:]
        for entity in model.entities { _ = outcome(entity, in: model, derived: derivedAttributes, memo: &memo) }
        return memo
    }

    /// The hashes as Core Data stores them, when every entity is covered.
    public static func coveredHashes(_ model: Model, derivedAttributes: Set<String> = []) -> [String: [UInt8]]? {
        var result: [String: [UInt8]] = [:]
        for (name, outcome) in entityHashes(model, derivedAttributes: derivedAttributes) {
            guard let hash = outcome.hash else { return nil }
            result[name] = hash
        }
        return result
    }

    /// `NSStoreModelVersionHashesDigest` (written since framework version 977).
    public static func digest(_ hashes: [String: [UInt8]]) -> String {
        var bytes: [UInt8] = []
        for name in hashes.keys.sorted(by: utf8Order) { bytes += Array(name.utf8) + hashes[name]! }
        return Data(SHA2.sha512(bytes)).base64EncodedString()
    }

    private static func outcome(_ entity: Entity, in model: Model, derived: Set<String>, memo: inout [String: Outcome]) -> Outcome {
        if let known = memo[entity.name] { return known }
        // A cycle in the hierarchy is validation's to report; never recurse forever.
        memo[entity.name] = .notCovered("its parent hierarchy is a cycle")
        var bytes = Array(entity.name.utf8) + [entity.isAbstract ? 1 : 0]
        if let parentName = entity.parent {
            guard let parent = model.entity(named: parentName) else {
                return record(.notCovered("its parent \(parentName) is not in the model"), entity, &memo)
            }
            guard let parentHash = outcome(parent, in: model, derived: derived, memo: &memo).hash else {
                return record(.notCovered("its parent \(parentName) is not covered"), entity, &memo)
            }
            bytes += parentHash
        }
        var hashes: [(name: String, hash: [UInt8])] = []
        // Inherited properties count as the entity's own; transient ones
        // (fetched properties are transient too) are not hashed.
        for owner in entity.ancestors(in: model).reversed() + [entity] {
            for a in owner.attributes where !a.isTransient {
                if a.derivation != nil || derived.contains(owner.name + "." + a.name) {
                    return record(.notCovered("derived attribute \(owner.name).\(a.name): its hash layout is unknown"), entity, &memo)
                }
                hashes.append((a.name, attributeHash(a)))
            }
            for r in owner.relationships where !r.isTransient { hashes.append((r.name, relationshipHash(r))) }
        }
        for h in hashes.sorted(by: { utf8Order($0.name, $1.name) }) { bytes += h.hash }
        let constraints = entity.uniquenessConstraints.map { $0.properties.joined(separator: ".") }
        for c in constraints.sorted(by: utf8Order) { bytes += Array(c.utf8) }
        if let modifier = entity.versionHashModifier { bytes += Array(modifier.utf8) }
        return record(.hash(SHA2.sha256(bytes)), entity, &memo)
    }

    private static func record(_ outcome: Outcome, _ entity: Entity, _ memo: inout [String: Outcome]) -> Outcome {
        memo[entity.name] = outcome
        return outcome
    }

    /// The hash every property starts from.
    private static func propertyHash(name: String, isOptional: Bool, isTransient: Bool, modifier: String?) -> [UInt8] {
        var bytes = Array(name.utf8) + [isOptional ? 1 : 0, isTransient ? 1 : 0]
        if let modifier { bytes += Array(modifier.utf8) }
        return SHA2.sha256(bytes)
    }

    static func attributeHash(_ a: Attribute) -> [UInt8] {
        var bytes = propertyHash(name: a.name, isOptional: a.isOptional, isTransient: a.isTransient, modifier: a.versionHashModifier)
        bytes += littleEndian32(typeCode(a.type))
        if a.allowsExternalBinaryDataStorage { bytes.append(1) }
        if a.preservesValueInHistoryOnDeletion { bytes.append(1) }
        return SHA2.sha256(bytes)
    }

    static func relationshipHash(_ r: Relationship) -> [UInt8] {
        var bytes = propertyHash(name: r.name, isOptional: r.isOptional, isTransient: r.isTransient, modifier: r.versionHashModifier)
        bytes += Array(r.destination.utf8)
        if let inverse = r.inverse { bytes += Array(inverse.utf8) }
        // A model built in code has no file counts: Xcode's defaults (no
        // minCount; maxCount 1 for to-one, 0 = unbounded for to-many).
        let maxCount = r.declaredMaxCount ?? (r.isToMany ? r.maxCount ?? 0 : 1)
        let minCount = r.declaredMinCount ?? (r.isToMany ? r.minCount : 0)
        bytes += littleEndian32(maxCount) + littleEndian32(minCount)
        if r.isOrdered { bytes += [1, 0] }
        return SHA2.sha256(bytes)
    }

    /// NSAttributeType's code for a type.
    static func typeCode(_ type: AttributeType) -> Int {
        switch type {
        case .undefined: return 0
        case .integer16: return 100
        case .integer32: return 200
        case .integer64: return 300
        case .decimal: return 400
        case .double: return 500
        case .float: return 600
        case .string: return 700
        case .boolean: return 800
        case .date: return 900
        case .binary: return 1000
        case .uuid: return 1100
        case .uri: return 1200
        case .transformable: return 1800
        case .objectID: return 2000
        }
    }

    /// Two's complement, so a count of -1 (NSUIntegerMax, seen in cached
    /// models) hashes as ff ff ff ff, as Core Data's does.
    private static func littleEndian32(_ n: Int) -> [UInt8] {
        let v = UInt32(truncatingIfNeeded: n)
        return [UInt8(v & 0xff), UInt8(v >> 8 & 0xff), UInt8(v >> 16 & 0xff), UInt8(v >> 24)]
    }

    /// Names compared by their UTF-8 bytes (for ASCII names, Core Data's
    /// order; non-ASCII names are not in the corpus).
    private static func utf8Order(_ a: String, _ b: String) -> Bool { a.utf8.lexicographicallyPrecedes(b.utf8) }
}
