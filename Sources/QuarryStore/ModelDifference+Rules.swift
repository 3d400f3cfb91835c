// Which model changes a lightweight migration infers, following Core Data's
// rules where it has them and saying why where Quarry chose:
//
// - added and removed entities, attributes and relationships: inferred
//   (removed ones drop their data, as Core Data does);
// - a new required attribute needs a default (Core Data fills existing
//   objects with it; without one the migration is refused — whether any
//   object exists is not asked: Core Data does not ask either);
// - optional → required needs a default (existing NULLs become it);
//   required → optional, a changed default: nothing stored changes;
// - type changes: only widening that keeps every value exactly —
//   integer16 → integer32 → integer64; integer16/32 → double or decimal
//   (every 32-bit integer is exact in a double); integer16 → float; float →
//   double. integer64 → double is refused (integers above 2^53 would lose
//   digits); every other change (narrowing, to or from strings, dates…)
//   may lose data and is refused;
// - to-one → to-many: inferred (the link moves to a join table or the
//   other side's key); to-many → to-one: refused (an object with two links
//   would lose one); a changed destination: refused;
// - ordered ↔ unordered, index changes: inferred; a new uniqueness
//   constraint: inferred, then checked against the data when migrating
//   (duplicates refuse the migration, naming them);
// - a new required relationship: refused (existing objects have no link).
import QuarryModel

extension ModelDifference {
    static func entityAdded(_ entity: Entity, in model: Model) -> ModelChange {
        ModelChange(.entityAdded, entity.name, nil, "new entity" + (entity.parent.map { " (sub-entity of \($0))" } ?? ""))
    }

    static func attributeAdded(_ a: Attribute, of entity: String) -> ModelChange {
        let what = "\(a.type.yamlName), \(a.isOptional ? "optional" : "required")" + (a.defaultValue.map { ", default \(ModelArchive.text($0))" } ?? "")
        if a.isTransient { return ModelChange(.attributeAdded, entity, a.name, "transient (\(what)): nothing stored") }
        let refusal = !a.isOptional && a.defaultValue == nil && a.derivation == nil
            ? "a new required attribute needs a default value to fill the existing objects" : nil
        return ModelChange(.attributeAdded, entity, a.name, what, refusal: refusal)
    }

    static func relationshipAdded(_ r: Relationship, of entity: String) -> ModelChange {
        let what = "\(r.isToMany ? "to-many" : "to-one") to \(r.destination)"
        let required = !r.isTransient && (r.isToMany ? r.minCount > 0 : !r.isOptional)
        return ModelChange(.relationshipAdded, entity, r.name, what,
                           refusal: required ? "a new required relationship would leave the existing objects without the links it requires" : nil)
    }

    static func attributeChanges(_ was: Attribute, _ now: Attribute, of entity: String) -> [ModelChange] {
        var changes: [ModelChange] = []
        if was.name != now.name { changes.append(ModelChange(.attributeRenamed, entity, now.name, "renamed from \(was.name)")) }
        if was.isTransient != now.isTransient {
            changes.append(ModelChange(.transientChanged, entity, now.name,
                                       now.isTransient ? "made transient: its stored values are dropped" : "made stored: existing objects get its default"))
        }
        if was.type != now.type {
            changes.append(ModelChange(.typeChanged, entity, now.name, "\(was.type.yamlName) → \(now.type.yamlName)",
                                       refusal: typeChangeRefusal(from: was.type, to: now.type)))
        }
        if was.isOptional && !now.isOptional {
            changes.append(ModelChange(.madeRequired, entity, now.name, "optional → required" + (now.defaultValue.map { ", existing NULLs become \(ModelArchive.text($0))" } ?? ""),
                                       refusal: now.defaultValue == nil && !now.isTransient
                                        ? "optional → required needs a default value for the objects that have none (Core Data's rule)" : nil))
        } else if !was.isOptional && now.isOptional {
            changes.append(ModelChange(.madeOptional, entity, now.name, "required → optional"))
        }
        if was.defaultValue != now.defaultValue {
            changes.append(ModelChange(.defaultChanged, entity, now.name,
                                       "default \(was.defaultValue.map(ModelArchive.text) ?? "none") → \(now.defaultValue.map(ModelArchive.text) ?? "none") (existing values stay)"))
        }
        var left = was, right = now
        (left.name, left.isTransient, left.type, left.isOptional, left.defaultValue) = (right.name, right.isTransient, right.type, right.isOptional, right.defaultValue)
        // The renaming identifier itself is how a rename is said, not a change of its own.
        left.userInfo[renamingKey] = nil
        right.userInfo[renamingKey] = nil
        if left != right { changes.append(ModelChange(.metadataChanged, entity, now.name, "validation rules or user info")) }
        return changes
    }

    /// Why a stored attribute cannot change from `from` to `to` in place, or
    /// nil when every stored value converts exactly.
    public static func typeChangeRefusal(from: AttributeType, to: AttributeType) -> String? {
        if from == to { return nil }
        let rank: [AttributeType: Int] = [.integer16: 16, .integer32: 32, .integer64: 64]
        if let a = rank[from], let b = rank[to] {
            return a < b ? nil : "narrowing \(from.yamlName) to \(to.yamlName) could lose values outside \(to.integerRange!)"
        }
        switch (from, to) {
        case (.integer16, .double), (.integer32, .double), (.integer16, .decimal), (.integer32, .decimal),
             (.integer16, .float), (.float, .double):
            return nil
        case (.integer64, .double), (.integer64, .decimal):
            return "integer64 values above 2^53 lose digits as \(to.yamlName)s"
        default:
            return "changing \(from.yamlName) to \(to.yamlName) can lose or misread stored values; Core Data infers no such change (it needs a mapping model)"
        }
    }

    func relationshipChanges(_ was: Relationship, _ now: Relationship, of entity: String) -> [ModelChange] {
        var changes: [ModelChange] = []
        if was.name != now.name { changes.append(ModelChange(.relationshipRenamed, entity, now.name, "renamed from \(was.name)")) }
        if entityMatch[now.destination] != was.destination {
            changes.append(ModelChange(.destinationChanged, entity, now.name, "destination \(was.destination) → \(now.destination)",
                                       refusal: "the stored links point at \(was.destination) objects; Core Data infers no change of destination"))
        }
        if !was.isToMany && now.isToMany {
            changes.append(ModelChange(.toOneBecameToMany, entity, now.name, "to-one → to-many (each existing link kept)"))
        } else if was.isToMany && !now.isToMany {
            changes.append(ModelChange(.toManyBecameToOne, entity, now.name, "to-many → to-one",
                                       refusal: "an object with several links would lose all but one"))
        }
        if was.isToMany && now.isToMany && was.isOrdered != now.isOrdered {
            changes.append(ModelChange(.orderedChanged, entity, now.name, now.isOrdered ? "unordered → ordered (existing links in key order)" : "ordered → unordered"))
        }
        let oldInverse = was.inverse.flatMap { name in propertyMatch[now.destination]?.first { $0.value == name }?.key ?? "\(name) (removed)" }
        if oldInverse != now.inverse {
            changes.append(ModelChange(.inverseChanged, entity, now.name, "inverse \(was.inverse ?? "none") → \(now.inverse ?? "none") (links kept)"))
        }
        if was.isTransient != now.isTransient {
            changes.append(ModelChange(.transientChanged, entity, now.name, now.isTransient ? "made transient: its links are dropped" : "made stored: existing objects start without links"))
        }
        if was.isOptional && !now.isOptional && !now.isToMany {
            changes.append(ModelChange(.madeRequired, entity, now.name, "optional → required",
                                       refusal: "existing objects without a link would break the rule; Core Data needs a mapping model"))
        }
        return changes
    }
}
