// The model Core Data caches inside its store (`Z_MODELCACHE.Z_CONTENT`):
// raw DEFLATE of a keyed archive whose root is an NSManagedObjectModel.
// Decoded here into Quarry's `Model` — entities with their parent and
// abstract flag, attributes (type from NSAttributeType's code, optional,
// transient, transformer), relationships (destination, inverse, to-many,
// ordered, optional, counts, delete rule) — so a store from a device opens
// without its `.xcdatamodeld`. Indexes, constraints, fetched properties and
// fetch request templates are not needed to read rows and are left out;
// uniqueness constraints, version hash modifiers and the raw relationship
// counts are read for the version hash (CoreDataVersionHash).
//
// An entity's archived property list repeats what it inherits (as copies or
// proxies); a property is declared on an entity when its parent has no
// property of that name.
import QuarryModel

enum CachedModelReader {
    /// The model in a `Z_MODELCACHE.Z_CONTENT` blob.
    static func read(_ blob: [UInt8]) throws(CoreDataError) -> Model { try readWithRenames(blob).model }

    /// The model and its renaming identifiers (NSRenamingIdentifier where
    /// it differs from the name: the store keeps the old names).
    static func readWithRenames(_ blob: [UInt8]) throws(CoreDataError) -> (model: Model, renames: RenamingIdentifiers) {
        let full = try readFull(blob)
        return (full.model, full.renames)
    }

    /// The model, its renaming identifiers, and its derived attributes
    /// ("Entity.attribute": read as plain attributes, their derivation is an
    /// archived expression Quarry does not decode; the version hash must
    /// know them).
    static func readFull(_ blob: [UInt8]) throws(CoreDataError)
        -> (model: Model, renames: RenamingIdentifiers, derivedAttributes: Set<String>) {
        guard let inflated = Inflate.raw(blob) else {
            throw CoreDataError(.unreadableModel, "the model cached in the store (Z_MODELCACHE) does not decompress")
        }
        let plist: PropertyListValue
        do { plist = try BinaryPropertyList.read(inflated) } catch {
            throw CoreDataError(.unreadableModel, "the model cached in the store: \(error)")
        }
        let archive = try KeyedArchive(plist)
        let archived = archive.elements(archive.field(archive.root, "NSEntities"))
        guard !archived.isEmpty else { throw CoreDataError(.unreadableModel, "the model cached in the store has no entities") }

        var byName: [String: PropertyListValue] = [:]
        for e in archived { if let name = archive.field(e, "NSEntityName")?.string { byName[name] = e } }
        func parent(of e: PropertyListValue) -> String? { archive.field(archive.field(e, "NSSuperentity"), "NSEntityName")?.string }
        func propertyNames(_ e: PropertyListValue?) -> Set<String> {
            Set(archive.elements(archive.field(e, "NSProperties")).compactMap { name(of: $0) })
        }
        func name(of property: PropertyListValue) -> String? {
            archive.field(property, "NSPropertyName")?.string
                ?? archive.field(archive.field(property, "NSUnderlyingProperty"), "NSPropertyName")?.string
        }

        var entities: [Entity] = []
        var renames = RenamingIdentifiers()
        var derived: Set<String> = []
        func noteRename(_ object: PropertyListValue, _ key: String) {
            if let old = archive.field(object, "NSRenamingIdentifier")?.string, !old.isEmpty, !key.hasSuffix("." + old), key != old {
                renames.names[key] = old
            }
        }
        for (entityName, e) in byName.sorted(by: { $0.key < $1.key }) {
            noteRename(e, entityName)
            let parentName = parent(of: e)
            let inherited = propertyNames(parentName.flatMap { byName[$0] })
            var entity = Entity(name: entityName, isAbstract: e["NSIsAbstract"]?.bool ?? false, parent: parentName)
            entity.versionHashModifier = archive.string(e, "NSVersionHashModifier")
            entity.uniquenessConstraints = uniquenessConstraints(e, archive: archive)
            for p in archive.elements(archive.field(e, "NSProperties")) {
                guard let propertyName = name(of: p), !inherited.contains(propertyName) else { continue }
                noteRename(p, entityName + "." + propertyName)
                switch archive.className(p) {
                case "NSAttributeDescription", "NSDerivedAttributeDescription":
                    entity.attributes.append(try attribute(p, named: propertyName, archive: archive, entity: entityName))
                    if archive.className(p) == "NSDerivedAttributeDescription" { derived.insert(entityName + "." + propertyName) }
                case "NSRelationshipDescription":
                    entity.relationships.append(try relationship(p, named: propertyName, archive: archive, entity: entityName))
                default:
                    continue   // fetched properties, composite attributes: not stored as plain columns
                }
            }
            entities.append(entity)
        }
        return (Model(entities: entities), renames, derived)
    }

    /// NSAttributeType codes (NSAttributeDescription.h).
    static func attributeType(_ code: Int64) -> AttributeType? {
        switch code {
        case 0: return .undefined
        case 100: return .integer16
        case 200: return .integer32
        case 300: return .integer64
        case 400: return .decimal
        case 500: return .double
        case 600: return .float
        case 700: return .string
        case 800: return .boolean
        case 900: return .date
        case 1000: return .binary
        case 1100: return .uuid
        case 1200: return .uri
        case 1800: return .transformable
        case 2000: return .objectID
        default: return nil
        }
    }

    private static func attribute(_ p: PropertyListValue, named name: String, archive: KeyedArchive,
                                  entity: String) throws(CoreDataError) -> Attribute {
        let code = p["NSAttributeType"]?.int ?? 0
        guard let type = attributeType(code) else {
            throw CoreDataError(.unreadableModel, "\(entity).\(name) has attribute type code \(code), which Quarry does not know",
                                hint: "give the model file with --model")
        }
        var a = Attribute(name: name, type: type, isOptional: p["NSIsOptional"]?.bool ?? false,
                          isTransient: p["NSIsTransient"]?.bool ?? false,
                          valueTransformerName: archive.field(p, "NSValueTransformerName")?.string)
        // Flag 4 of NSFlagsKey: "allows external storage" (seen only on
        // Binary attributes whose model file says so).
        a.allowsExternalBinaryDataStorage = type == .binary && ((p["NSFlagsKey"]?.int ?? 0) & 4) != 0
        // Flag 16: preservesValueInHistoryOnDeletion (seen with the model
        // file's preserveAfterDeletion="YES"; the version hash confirms it).
        a.preservesValueInHistoryOnDeletion = ((p["NSFlagsKey"]?.int ?? 0) & 16) != 0
        a.versionHashModifier = archive.string(p, "NSVersionHashModifier")
        return a
    }

    private static func relationship(_ p: PropertyListValue, named name: String, archive: KeyedArchive,
                                     entity: String) throws(CoreDataError) -> Relationship {
        guard let destination = archive.field(p, "_NSDestinationEntityName")?.string
                ?? archive.field(archive.field(p, "NSDestinationEntity"), "NSEntityName")?.string else {
            throw CoreDataError(.unreadableModel, "\(entity).\(name) has no destination entity in the cached model")
        }
        let inverse = archive.field(p, "_NSInverseRelationshipName")?.string
            ?? archive.field(archive.field(p, "NSInverseRelationship"), "NSPropertyName")?.string
        let maxCount = Int(p["NSMaxCount"]?.int ?? 0)
        let rules: [Int64: DeleteRule] = [0: .noAction, 1: .nullify, 2: .cascade, 3: .deny]
        let isToMany = maxCount != 1
        var r = Relationship(name: name, destination: destination, isToMany: isToMany,
                             isOrdered: p["NSIsOrdered"]?.bool ?? false,
                             isOptional: p["NSIsOptional"]?.bool ?? false,
                             minCount: Int(p["NSMinCount"]?.int ?? 0), maxCount: maxCount > 1 ? maxCount : nil,
                             inverse: inverse, deleteRule: rules[p["NSDeleteRule"]?.int ?? 1] ?? .nullify,
                             isTransient: p["NSIsTransient"]?.bool ?? false)
        r.declaredMinCount = Int(p["NSMinCount"]?.int ?? 0)
        r.declaredMaxCount = maxCount
        r.versionHashModifier = archive.string(p, "NSVersionHashModifier")
        return r
    }

    /// NSUniqueTuples: an array of arrays of property names (the version
    /// hash includes them; reading rows does not need them).
    private static func uniquenessConstraints(_ e: PropertyListValue, archive: KeyedArchive) -> [UniquenessConstraint] {
        archive.elements(archive.field(e, "NSUniqueTuples")).compactMap { tuple in
            let names = archive.elements(tuple).compactMap { $0.string ?? $0["NS.string"]?.string }
            return names.isEmpty ? nil : UniquenessConstraint(names)
        }
    }
}
