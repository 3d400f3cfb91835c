// Validation hooks: the app's own rules, run on save next to the model's.
// Core Data has them as methods an NSManagedObject subclass overrides —
// `validate<Key>:error:` / `validateValue:forKey:error:` per key (which may
// hand back a corrected value) and `validateForInsert:`, `validateForUpdate:`
// and `validateForDelete:` per object. Quarry has no subclasses, so they are
// closures registered by entity name in a `ValidationHooks` value held by the
// context (`context.validationHooks`); a hook registered for an entity also
// runs for its sub-entities, as an overridden method would.
//
// When they run (in `save()`, before anything is written):
// - per-key validators: for every inserted or updated object, each key of its
//   entity that has validators (not only the changed ones: Core Data's
//   validateForUpdate validates every property). A validator may return a
//   corrected value: it is set on the object (as `setValue(_:forKey:)` would,
//   so it stays even if the save then fails) before the model's rules judge it;
// - validateForInsert / validateForUpdate for inserted / updated objects,
//   validateForDelete for saved objects being deleted;
// - then the model's own rules (Validation.swift).
// Every failure of every object is collected; the save throws one
// `ValidationError` listing the model's failures first, then the hooks'.
import Foundation

/// What a per-key validator decides about a value.
public enum KeyValidation: Sendable, Equatable {
    /// The value is fine as it is.
    case valid
    /// The value is replaced by this one (Core Data's coerced `ioValue`).
    case corrected(Value)
}

/// A failure a hook reports: thrown from any hook, it names the key that is
/// wrong (nil: the object as a whole) and says why. Any other error a hook
/// throws is reported with its description.
public struct ValidationHookError: Error, Sendable, Equatable, CustomStringConvertible {
    public var key: String?
    public var message: String

    public init(_ message: String, key: String? = nil) {
        self.key = key
        self.message = message
    }

    public var description: String { message }
}

/// The app's validation rules, by entity name (see the top of this file).
///
/// ```swift
/// var hooks = ValidationHooks()
/// hooks.validate("Employee", key: "name") { value, _ in
///     guard case .string(let s) = value else { return .valid }
///     return .corrected(.string(s.trimmingCharacters(in: .whitespaces)))
/// }
/// hooks.validateForUpdate("Employee") { employee in
///     if employee["salary"] == .int(0) { throw ValidationHookError("is unpaid", key: "salary") }
/// }
/// context.validationHooks = hooks
/// ```
public struct ValidationHooks {
    public typealias KeyValidator = (Value, ManagedObject) throws -> KeyValidation
    public typealias ObjectValidator = (ManagedObject) throws -> Void

    var keys: [String: [(key: String, check: KeyValidator)]] = [:]
    var inserts: [String: [ObjectValidator]] = [:]
    var updates: [String: [ObjectValidator]] = [:]
    var deletes: [String: [ObjectValidator]] = [:]

    public init() {}

    public var isEmpty: Bool { keys.isEmpty && inserts.isEmpty && updates.isEmpty && deletes.isEmpty }

    /// A validator of one key of `entity`'s objects, which may correct the value.
    public mutating func validate(_ entity: String, key: String, _ check: @escaping KeyValidator) {
        keys[entity, default: []].append((key, check))
    }

    /// A validator of one key that only accepts or refuses (by throwing).
    public mutating func validate(_ entity: String, key: String, _ check: @escaping (Value) throws -> Void) {
        validate(entity, key: key) { value, _ in try check(value); return .valid }
    }

    public mutating func validateForInsert(_ entity: String, _ check: @escaping ObjectValidator) {
        inserts[entity, default: []].append(check)
    }

    public mutating func validateForUpdate(_ entity: String, _ check: @escaping ObjectValidator) {
        updates[entity, default: []].append(check)
    }

    public mutating func validateForDelete(_ entity: String, _ check: @escaping ObjectValidator) {
        deletes[entity, default: []].append(check)
    }
}

extension Context {
    /// Runs the hooks on the objects of a save (insertion order), applying
    /// corrected values; returns every failure. Cheap when there are none.
    func runValidationHooks(_ objects: [ManagedObject]) throws -> [ValidationFailure] {
        let hooks = validationHooks
        guard !hooks.isEmpty else { return [] }
        var failures: [ValidationFailure] = []
        // An entity's hooks and its ancestors', worked out once per entity.
        var lineage: [String: [String]] = [:]
        func names(_ entity: Entity) -> [String] {
            if let known = lineage[entity.name] { return known }
            let all = [entity.name] + entity.ancestors(in: model).map(\.name)
            lineage[entity.name] = all
            return all
        }
        func report(_ object: ManagedObject, _ error: Error, key: String?, hook: String) {
            switch error {
            case let e as ValidationHookError:
                failures.append(ValidationFailure(entity: object.entity.name, objectID: object.objectID,
                                                  property: e.key ?? key ?? hook, reason: .hook(e.message)))
            case let e as ValidationError:
                failures += e.failures
            default:
                failures.append(ValidationFailure(entity: object.entity.name, objectID: object.objectID,
                                                  property: key ?? hook, reason: .hook(String(describing: error))))
            }
        }
        for object in objects {
            let lineage = names(object.entity)
            if object.isDeleted {
                guard !object.isInserted else { continue }
                for name in lineage { for check in hooks.deletes[name] ?? [] {
                    do { try check(object) } catch { report(object, error, key: nil, hook: "validateForDelete") }
                } }
                continue
            }
            for name in lineage { for (key, check) in hooks.keys[name] ?? [] {
                let value = object.value(forKey: key) ?? .null
                do {
                    if case .corrected(let v) = try check(value, object), v != value { try object.setValue(v, forKey: key) }
                } catch {
                    report(object, error, key: key, hook: "validateValue")
                }
            } }
            let (table, hook) = object.isInserted ? (hooks.inserts, "validateForInsert") : (hooks.updates, "validateForUpdate")
            for name in lineage { for check in table[name] ?? [] {
                do { try check(object) } catch { report(object, error, key: nil, hook: hook) }
            } }
        }
        return failures
    }
}
