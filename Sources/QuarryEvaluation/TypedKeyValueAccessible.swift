// Typed key access for host types: an opt-in beside `KeyValueAccessible`.
//
// `value(forKey:)` is found by name for every object and answers a `Value`,
// so filtering a million host objects switches on key strings and builds,
// copies and destroys a `Value` per key per object. A type that also adopts
// `TypedKeyValueAccessible` names, once per key, a typed accessor — a closure
// that reads the property itself — and `Evaluator.compile(_:for:)` resolves
// the predicate's key paths to those closures when it compiles (to-one
// relations are followed into the related type's own accessors). Objects of
// that exact class are then filtered with no key lookup and, for the common
// comparisons of a string, an integer or a double with a constant, no `Value`
// at all (Compiler+Typed.swift).
//
// The contract: an accessor answers what `value(forKey:)` answers for the
// same key on every instance (nil for null; `.int` for `.int(_)`, and so on).
// Keys without an accessor (nil) are read through `value(forKey:)` as before.

/// A host type whose keys can be resolved to typed accessors once, when a
/// predicate is compiled for it with `Evaluator.compile(_:for:)`.
///
/// ```swift
/// final class Employee: TypedKeyValueAccessible, @unchecked Sendable {
///     let name: String, salary: Int, department: Department
///     func value(forKey key: String) -> Value? {
///         switch key {
///         case "name": return .string(name)
///         case "salary": return .int(Int64(salary))
///         case "department": return .object(ObjectReference(department))
///         default: return nil
///         }
///     }
///     static func accessor(forKey key: String) -> KeyAccessor<Employee>? {
///         switch key {
///         case "name": return .string { $0.name }
///         case "salary": return .int { $0.salary }
///         case "department": return .object { $0.department }   // Department is typed too
///         default: return nil
///         }
///     }
/// }
/// let p = try Evaluator.compile(try Parser.parsePredicate("department.name == 'Dept 7' AND salary > 50000"),
///                               for: Employee.self)
/// ```
public protocol TypedKeyValueAccessible: KeyValueAccessible {
    /// The accessor for `key`, or nil to read the key through
    /// `value(forKey:)`. Asked once per key path when a predicate compiles.
    static func accessor(forKey key: String) -> KeyAccessor<Self>?
}

/// How to read one key of a `Root` directly. Each accessor must answer
/// what `value(forKey:)` answers for the key (nil for null).
public struct KeyAccessor<Root: KeyValueAccessible>: Sendable {
    enum Read: Sendable {
        case int(@Sendable (Root) -> Int64?)
        case double(@Sendable (Root) -> Double?)
        case bool(@Sendable (Root) -> Bool?)
        case string(@Sendable (Root) -> String?)
        case value(@Sendable (Root) -> Value)
        /// A to-one relation: its value, and how to continue a key path
        /// into the related type's own accessors.
        case object(value: @Sendable (Root) -> Value, follow: @Sendable (String) -> KeyAccessor<Root>?)
    }

    let read: Read

    init(_ read: Read) { self.read = read }

    /// An integer key (`value(forKey:)` answers `.int`).
    public static func int(_ read: @escaping @Sendable (Root) -> Int64?) -> KeyAccessor { KeyAccessor(.int(read)) }

    /// An integer key held as `Int`.
    public static func int(_ read: @escaping @Sendable (Root) -> Int?) -> KeyAccessor {
        KeyAccessor(.int { (r: Root) -> Int64? in
            guard let i = read(r) else { return nil }
            return Int64(i)
        })
    }

    /// A floating-point key (`.double`).
    public static func double(_ read: @escaping @Sendable (Root) -> Double?) -> KeyAccessor { KeyAccessor(.double(read)) }

    /// A boolean key (`.bool`).
    public static func bool(_ read: @escaping @Sendable (Root) -> Bool?) -> KeyAccessor { KeyAccessor(.bool(read)) }

    /// A string key (`.string`).
    public static func string(_ read: @escaping @Sendable (Root) -> String?) -> KeyAccessor { KeyAccessor(.string(read)) }

    /// Any other key, answered as a `Value` (dates, collections, …).
    public static func value(_ read: @escaping @Sendable (Root) -> Value) -> KeyAccessor { KeyAccessor(.value(read)) }

    /// A to-one relation to another typed host type (`.object`, or null for
    /// nil); key paths through it use `Target`'s accessors.
    public static func object<Target: TypedKeyValueAccessible>(_ read: @escaping @Sendable (Root) -> Target?) -> KeyAccessor {
        KeyAccessor(.object(
            value: { (r: Root) -> Value in
                guard let t = read(r) else { return .null }
                return .object(ObjectReference(t))
            },
            follow: { (key: String) -> KeyAccessor<Root>? in
                Target.accessor(forKey: key)?.after(read)
            }))
    }

    /// The key's value as `value(forKey:)` would answer it.
    var value: @Sendable (Root) -> Value {
        switch read {
        case .int(let f): return { (r: Root) -> Value in
                guard let x = f(r) else { return .null }
                return .int(x)
            }
        case .double(let f): return { (r: Root) -> Value in
                guard let x = f(r) else { return .null }
                return .double(x)
            }
        case .bool(let f): return { (r: Root) -> Value in
                guard let x = f(r) else { return .null }
                return .bool(x)
            }
        case .string(let f): return { (r: Root) -> Value in
                guard let x = f(r) else { return .null }
                return .string(x)
            }
        case .value(let f): return f
        case .object(let f, _): return f
        }
    }

    /// This accessor read through a to-one relation of `Base`: nil from the
    /// relation is null all along the path, as key paths propagate nil.
    func after<Base: KeyValueAccessible>(_ hop: @escaping @Sendable (Base) -> Root?) -> KeyAccessor<Base> {
        switch read {
        case .int(let f): return .int { (b: Base) -> Int64? in
                guard let r = hop(b) else { return nil }
                return f(r)
            }
        case .double(let f): return .double { (b: Base) -> Double? in
                guard let r = hop(b) else { return nil }
                return f(r)
            }
        case .bool(let f): return .bool { (b: Base) -> Bool? in
                guard let r = hop(b) else { return nil }
                return f(r)
            }
        case .string(let f): return .string { (b: Base) -> String? in
                guard let r = hop(b) else { return nil }
                return f(r)
            }
        case .value(let f): return .value { (b: Base) -> Value in
                guard let r = hop(b) else { return .null }
                return f(r)
            }
        case .object(let f, let follow):
            return KeyAccessor<Base>(.object(
                value: { (b: Base) -> Value in
                    guard let r = hop(b) else { return .null }
                    return f(r)
                },
                follow: { (key: String) -> KeyAccessor<Base>? in follow(key)?.after(hop) }))
        }
    }
}

extension TypedKeyValueAccessible {
    /// The accessor for a dotted path of plain keys, following to-one
    /// relations; nil when some key has no accessor.
    static func accessor(forPath path: [String]) -> KeyAccessor<Self>? {
        guard let first = path.first, var accessor = accessor(forKey: first) else { return nil }
        for key in path.dropFirst() {
            guard case .object(_, let follow) = accessor.read, let next = follow(key) else { return nil }
            accessor = next
        }
        return accessor
    }
}
