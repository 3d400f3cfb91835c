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
//
// Why the factories are @inlinable: they wrap the user's closure into one
// over `AnyObject` in the user's own module, where `Root` is concrete. Kept
// generic inside Quarry, each call would pass `Root` at the generic
// abstraction, through a reabstraction thunk, per object. The evaluator only
// ever calls the wrapped closures after checking the object's class.

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
    @usableFromInline let read: KeyRead

    @inlinable init(_ read: KeyRead) { self.read = read }

    /// An integer key (`value(forKey:)` answers `.int`).
    @inlinable
    public static func int(_ read: @escaping @Sendable (Root) -> Int64?) -> KeyAccessor {
        KeyAccessor(.int { (o: AnyObject) -> Int64? in read(unsafeDowncast(o, to: Root.self)) })
    }

    /// An integer key held as `Int`.
    @inlinable
    public static func int(_ read: @escaping @Sendable (Root) -> Int?) -> KeyAccessor {
        KeyAccessor(.int { (o: AnyObject) -> Int64? in
            guard let i = read(unsafeDowncast(o, to: Root.self)) else { return nil }
            return Int64(i)
        })
    }

    /// A floating-point key (`.double`).
    @inlinable
    public static func double(_ read: @escaping @Sendable (Root) -> Double?) -> KeyAccessor {
        KeyAccessor(.double { (o: AnyObject) -> Double? in read(unsafeDowncast(o, to: Root.self)) })
    }

    /// A boolean key (`.bool`).
    @inlinable
    public static func bool(_ read: @escaping @Sendable (Root) -> Bool?) -> KeyAccessor {
        KeyAccessor(.bool { (o: AnyObject) -> Bool? in read(unsafeDowncast(o, to: Root.self)) })
    }

    /// A string key (`.string`).
    @inlinable
    public static func string(_ read: @escaping @Sendable (Root) -> String?) -> KeyAccessor {
        KeyAccessor(.string { (o: AnyObject) -> String? in read(unsafeDowncast(o, to: Root.self)) })
    }

    /// Any other key, answered as a `Value` (dates, collections, …).
    @inlinable
    public static func value(_ read: @escaping @Sendable (Root) -> Value) -> KeyAccessor {
        KeyAccessor(.value { (o: AnyObject) -> Value in read(unsafeDowncast(o, to: Root.self)) })
    }

    /// A to-one relation to another typed host type (`.object`, or null for
    /// nil); key paths through it use `Target`'s accessors.
    @inlinable
    public static func object<Target: TypedKeyValueAccessible>(_ read: @escaping @Sendable (Root) -> Target?) -> KeyAccessor {
        KeyAccessor(.object(
            value: { (o: AnyObject) -> Value in
                guard let t = read(unsafeDowncast(o, to: Root.self)) else { return .null }
                return .object(ObjectReference(t))
            },
            hop: { (o: AnyObject) -> AnyObject? in read(unsafeDowncast(o, to: Root.self)) },
            follow: { (key: String) -> KeyRead? in Target.accessor(forKey: key)?.read }))
    }
}

/// An accessor with its root type erased: each closure takes an object of
/// the root type (checked before the call) as `AnyObject`.
@usableFromInline
enum KeyRead: Sendable {
    case int(@Sendable (AnyObject) -> Int64?)
    case double(@Sendable (AnyObject) -> Double?)
    case bool(@Sendable (AnyObject) -> Bool?)
    case string(@Sendable (AnyObject) -> String?)
    case value(@Sendable (AnyObject) -> Value)
    /// A to-one relation: its value, the related object (`hop`), and the
    /// related type's reads (`follow`, relative to the related object).
    case object(value: @Sendable (AnyObject) -> Value, hop: @Sendable (AnyObject) -> AnyObject?,
                follow: @Sendable (String) -> KeyRead?)

    /// The key's value as `value(forKey:)` would answer it.
    var value: @Sendable (AnyObject) -> Value {
        switch self {
        case .int(let f): return { (o: AnyObject) -> Value in
                guard let x = f(o) else { return .null }
                return .int(x)
            }
        case .double(let f): return { (o: AnyObject) -> Value in
                guard let x = f(o) else { return .null }
                return .double(x)
            }
        case .bool(let f): return { (o: AnyObject) -> Value in
                guard let x = f(o) else { return .null }
                return .bool(x)
            }
        case .string(let f): return { (o: AnyObject) -> Value in
                guard let x = f(o) else { return .null }
                return .string(x)
            }
        case .value(let f): return f
        case .object(let f, _, _): return f
        }
    }

    /// The read for a dotted path of plain keys, as the object the last key
    /// is read from (`hop`, nil for the root itself: the relations before it,
    /// composed) and that key's read; nil when some key has no accessor.
    static func path(_ path: [String], first: (String) -> KeyRead?) -> HostPath? {
        guard let head = path.first, var read = first(head) else { return nil }
        var hop: (@Sendable (AnyObject) -> AnyObject?)? = nil
        for key in path.dropFirst() {
            guard case .object(_, let next, let follow) = read, let leaf = follow(key) else { return nil }
            if let before = hop {
                hop = { (o: AnyObject) -> AnyObject? in
                    guard let t = before(o) else { return nil }
                    return next(t)
                }
            } else {
                hop = next
            }
            read = leaf
        }
        return HostPath(hop: hop, leaf: read)
    }
}

/// A key path resolved for a host class: the relations to follow (nil: none)
/// and the read of the last key.
struct HostPath {
    let hop: (@Sendable (AnyObject) -> AnyObject?)?
    let leaf: KeyRead
}
