// Value transformers by name, for transformable attributes: what a model's
// `valueTransformerName` names turns a value into the bytes a store keeps
// and back. Built in:
// - `NSSecureUnarchiveFromData` (also `NSSecureUnarchiveFromDataTransformer`
//   and no name at all, Core Data's default `NSKeyedUnarchiveFromData`): the
//   keyed-archive format (KeyedArchiveValues.swift), so transformable columns
//   of Core Data-format stores decode;
// - `JSON`: UTF-8 JSON (objects, arrays, strings, numbers, booleans, null);
//   Codable values go through it with `encode(_:)` / `decode(_:from:)`;
// - `PropertyList`: a binary property list (read by BinaryPropertyList.swift,
//   written by Foundation).
// An app registers its own under any name. A name nobody registered is an
// error naming it (with the closest registered name) when a model is checked
// (`check(_:)`) or a value is first transformed — never a silent nil.
import Foundation
import QuarrySyntax

/// Why a value could not be transformed.
public enum ValueTransformerError: Error, Sendable, Equatable, CustomStringConvertible {
    case unknownTransformer(String, attribute: String?, suggestion: String?)
    case unreadable(String)
    case unsupported(String)

    public var description: String {
        switch self {
        case .unknownTransformer(let name, let attribute, let suggestion):
            return (attribute.map { "\($0): " } ?? "") + "no value transformer named '\(name)' is registered"
                + (suggestion.map { "; did you mean '\($0)'?" } ?? "")
        case .unreadable(let why): return "the transformed value cannot be read: \(why)"
        case .unsupported(let what): return "value transformers do not support \(what)"
        }
    }
}

/// Turns values into stored bytes and back (Foundation's ValueTransformer, for `Value`).
public protocol ValueTransforming: Sendable {
    /// The bytes stored for `value` (never called with `.null`: nil stays NULL).
    func encode(_ value: Value) throws -> [UInt8]
    /// The value `bytes` hold.
    func decode(_ bytes: [UInt8]) throws -> Value
}

/// A transformer made of two closures.
public struct ClosureTransformer: ValueTransforming {
    let forward: @Sendable (Value) throws -> [UInt8]
    let reverse: @Sendable ([UInt8]) throws -> Value
    public init(encode: @escaping @Sendable (Value) throws -> [UInt8], decode: @escaping @Sendable ([UInt8]) throws -> Value) {
        forward = encode
        reverse = decode
    }
    public func encode(_ value: Value) throws -> [UInt8] { try forward(value) }
    public func decode(_ bytes: [UInt8]) throws -> Value { try reverse(bytes) }
}

/// The registry (one per process, like Foundation's `ValueTransformer.setValueTransformer(_:forName:)`).
public final class ValueTransformerRegistry: @unchecked Sendable {
    // @unchecked: `transformers` is read and written under `lock`.
    private let lock = NSLock()
    private var transformers: [String: any ValueTransforming] = [:]

    public static let shared = ValueTransformerRegistry()

    /// The name a transformable attribute without one uses (Core Data's default).
    public static let defaultName = "NSSecureUnarchiveFromData"

    /// The names whose transformer is Foundation's keyed archive (Core
    /// Data's own transformers): what Quarry writes under them, Core Data
    /// reads. Any other name in a Core Data model is the app's own class.
    public static let keyedArchiveNames: Set<String> = [defaultName, "NSSecureUnarchiveFromDataTransformer", "NSKeyedUnarchiveFromData"]

    public init() {
        // The secure transformer's reader allows a fixed list of classes:
        // what it could not read back is refused when written.
        let secure = ClosureTransformer(encode: { value in
            try KeyedArchiveValues.checkSecureClasses(value)
            return try KeyedArchiveValues.encode(value)
        }, decode: KeyedArchiveValues.decode)
        for name in [Self.defaultName, "NSSecureUnarchiveFromDataTransformer"] { transformers[name] = secure }
        transformers["NSKeyedUnarchiveFromData"] = ClosureTransformer(encode: KeyedArchiveValues.encode, decode: KeyedArchiveValues.decode)
        transformers["JSON"] = JSONValueTransformer()
        transformers["PropertyList"] = PropertyListValueTransformer()
    }

    public func register(_ transformer: any ValueTransforming, name: String) {
        lock.lock(); defer { lock.unlock() }
        transformers[name] = transformer
    }

    public var names: [String] {
        lock.lock(); defer { lock.unlock() }
        return transformers.keys.sorted()
    }

    /// The transformer named `name` (nil: the default); unknown names throw.
    public func transformer(named name: String?, attribute: String? = nil) throws -> any ValueTransforming {
        let name = name ?? Self.defaultName
        lock.lock()
        let found = transformers[name]
        lock.unlock()
        guard let found else {
            throw ValueTransformerError.unknownTransformer(name, attribute: attribute, suggestion: Suggestions.closest(to: name, among: names))
        }
        return found
    }

    /// Registers `OpaqueValueTransformer` under every transformer name of
    /// `model` nobody registered: an app's transformers (`ColorTransformer`,
    /// …) cannot exist here, and a store whose model names one must still
    /// open — a Core Data store read read-only, the Quarry store it is
    /// exported to, a store made with a real app's model. Their columns read,
    /// and copy, as the bytes the app wrote; writing anything but bytes is
    /// the unknown-transformer error (with the closest registered name) at
    /// that first use. A name registered later (the real transformer)
    /// replaces it.
    public func registerOpaqueTransformers(missingFrom model: Model) {
        lock.lock(); defer { lock.unlock() }
        for e in model.entities {
            for a in e.attributes where a.type == .transformable {
                let name = a.valueTransformerName ?? Self.defaultName
                guard transformers[name] == nil else { continue }
                let unknown = ValueTransformerError.unknownTransformer(name, attribute: nil,
                                                                      suggestion: Suggestions.closest(to: name, among: transformers.keys.sorted()))
                transformers[name] = OpaqueValueTransformer(name: name, unknown: unknown)
            }
        }
    }

    /// Every transformable attribute's transformer is registered (checked
    /// when a model is loaded for use); the first unknown one throws.
    public func check(_ model: Model) throws {
        for e in model.entities {
            for a in e.attributes where a.type == .transformable {
                _ = try transformer(named: a.valueTransformerName, attribute: "\(e.name).\(a.name)")
            }
        }
    }
}

/// Bytes kept as they are: what `registerOpaqueTransformers` registers
/// for an app's transformer that is not available here. Reads give the
/// stored bytes (`.data`); only bytes can be written.
public struct OpaqueValueTransformer: ValueTransforming {
    public let name: String
    /// Why anything but bytes is refused: the name is not registered.
    let unknown: ValueTransformerError?
    public init(name: String) { self.init(name: name, unknown: nil) }
    init(name: String, unknown: ValueTransformerError?) {
        self.name = name
        self.unknown = unknown
    }
    public func encode(_ value: Value) throws -> [UInt8] {
        guard case .data(let bytes) = value else {
            if let unknown { throw unknown }
            throw ValueTransformerError.unsupported("\(value.typeName) values for '\(name)', a transformer only the app that made the store has: only its bytes can be written")
        }
        return bytes
    }
    public func decode(_ bytes: [UInt8]) throws -> Value { .data(bytes) }
}

/// Values as UTF-8 JSON. Dates, data and UUIDs have no JSON form and are
/// refused (encode them yourself, or use the keyed archive).
public struct JSONValueTransformer: ValueTransforming {
    public init() {}

    public func encode(_ value: Value) throws -> [UInt8] {
        [UInt8](try JSONSerialization.data(withJSONObject: try Self.json(value), options: [.fragmentsAllowed, .sortedKeys]))
    }

    public func decode(_ bytes: [UInt8]) throws -> Value {
        let object: Any
        do { object = try JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed]) } catch {
            throw ValueTransformerError.unreadable("not JSON (\(error.localizedDescription))")
        }
        return Self.value(object)
    }

    /// A Codable value as a `Value` (through its JSON form).
    public static func encode<T: Encodable>(_ value: T) throws -> Value {
        try JSONValueTransformer().decode([UInt8](try JSONEncoder().encode(value)))
    }

    /// A Codable value back from what `encode` gave.
    public static func decode<T: Decodable>(_ type: T.Type, from value: Value) throws -> T {
        try JSONDecoder().decode(type, from: Data(try JSONValueTransformer().encode(value)))
    }

    static func json(_ v: Value) throws -> Any {
        switch v {
        case .null: return NSNull()
        case .bool(let b): return b
        case .int(let n): return n
        case .double(let d): return d
        case .decimal(let d): return NSDecimalNumber(decimal: d)
        case .string(let s): return s
        case .array(let xs), .orderedSet(let xs), .set(let xs): return try xs.map(json)
        case .dictionary(let d): return try d.mapValues(json)
        case .date, .data, .uuid, .object: throw ValueTransformerError.unsupported("\(v) in JSON")
        }
    }

    static func value(_ any: Any) -> Value {
        switch any {
        case is NSNull: return .null
        case let s as String: return .string(s)
        case let n as NSNumber:
            // JSON booleans come back as NSNumber too: told apart by their type.
            switch String(cString: n.objCType) {
            case "c", "B": return .bool(n.boolValue)
            case "d", "f": return .double(n.doubleValue)
            default: return .int(n.int64Value)
            }
        case let a as [Any]: return .array(a.map(value))
        case let d as [String: Any]: return .dictionary(d.mapValues(value))
        default: return .string("\(any)")
        }
    }
}

/// Values as a binary property list (no null: a property list has none).
public struct PropertyListValueTransformer: ValueTransforming {
    public init() {}

    public func encode(_ value: Value) throws -> [UInt8] {
        [UInt8](try PropertyListSerialization.data(fromPropertyList: try Self.plist(value), format: .binary, options: 0))
    }

    public func decode(_ bytes: [UInt8]) throws -> Value { try Self.value(try BinaryPropertyList.read(bytes)) }

    static func plist(_ v: Value) throws -> Any {
        switch v {
        case .bool(let b): return NSNumber(value: b)
        case .int(let n): return NSNumber(value: n)
        case .double(let d): return NSNumber(value: d)
        case .string(let s): return s
        case .date(let d): return Date(timeIntervalSinceReferenceDate: d)
        case .data(let b): return Data(b)
        case .array(let xs), .orderedSet(let xs), .set(let xs): return try xs.map(plist)
        case .dictionary(let d): return try d.mapValues(plist)
        case .null, .decimal, .uuid, .object: throw ValueTransformerError.unsupported("\(v) in a property list")
        }
    }

    static func value(_ p: PropertyListValue) throws -> Value {
        switch p {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .int(let n): return .int(n)
        case .real(let d): return .double(d)
        case .date(let d): return .date(d)
        case .data(let b): return .data(b)
        case .string(let s): return .string(s)
        case .array(let xs): return .array(try xs.map(value))
        case .dictionary(let d): return .dictionary(try d.mapValues(value))
        case .uid: throw ValueTransformerError.unsupported("keyed-archive references in a plain property list")
        }
    }
}
