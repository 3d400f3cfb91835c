// Typed records the other way: an Encodable value as the attribute values to
// insert or update (as GRDB's PersistableRecord does). Each encoded property
// becomes a Value — Foundation's Date, Decimal, UUID, URL and Data as their
// cases, integers exactly (a UInt64 above Int64.max is refused, not wrapped) —
// and `Context+Records.swift` sets them on an object, where unknown keys
// throw at once and the model's rules run at save, as for `setValue`.
// Relationships are objects, not data: a nested record or array is refused
// with a message saying to set the relationship with the object.
import Foundation

struct RecordEncoder: Encoder {
    final class Storage { var values: [(String, Value)] = [] }
    let storage = Storage()
    var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// The record's properties in the order it encodes them (nil ones as `.null`).
    static func values(of record: some Encodable) throws -> [(String, Value)] {
        let encoder = RecordEncoder()
        try record.encode(to: encoder)
        return encoder.storage.values
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(Keyed<Key>(storage: storage, codingPath: codingPath))
    }
    func unkeyedContainer() -> any UnkeyedEncodingContainer { Refusing(codingPath: codingPath) }
    func singleValueContainer() -> any SingleValueEncodingContainer { Refusing(codingPath: codingPath) }

    static func relationshipRefusal(_ path: [any CodingKey], _ value: Any) -> EncodingError {
        let key = path.map(\.stringValue).joined(separator: ".")
        return .invalidValue(value, .init(codingPath: path, debugDescription:
            "'\(key)' encodes a nested value: a record's properties are attributes; set a relationship with setValue(_:forKey:) on the object"))
    }

    /// A property's value as a Value, or nil when it is no attribute value (a nested record).
    static func attributeValue(_ value: some Encodable, codingPath: [any CodingKey]) throws -> Value? {
        switch value {
        case let v as Value: return v
        case let s as String: return .string(s)
        case let b as Bool: return .bool(b)
        case let d as Double: return .double(d)
        case let f as Float: return .double(Double(f))
        case let d as Date: return Value(d)
        case let d as Decimal: return .decimal(d)
        case let u as UUID: return .uuid(u)
        case let d as Data: return Value(d)
        case let u as URL: return Value(u)
        case let i as any FixedWidthInteger:
            guard let exact = Int64(exactly: i) else {
                throw EncodingError.invalidValue(value, .init(codingPath: codingPath, debugDescription: "\(i) does not fit in a 64-bit integer attribute"))
            }
            return .int(exact)
        default: return nil
        }
    }

    struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let storage: Storage
        let codingPath: [any CodingKey]

        func encodeNil(forKey key: Key) throws { storage.values.append((key.stringValue, .null)) }
        func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            guard let v = try RecordEncoder.attributeValue(value, codingPath: codingPath + [key]) else {
                throw RecordEncoder.relationshipRefusal(codingPath + [key], value)
            }
            storage.values.append((key.stringValue, v))
        }
        // A nil optional is written as `.null`, not left out (the protocol's
        // default): an update from a record then clears it, as the record says.
        func orNull<T: Encodable>(_ value: T?, forKey key: Key) throws {
            if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
        }
        func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws { try orNull(value, forKey: key) }
        func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { try orNull(value, forKey: key) }
        func encodeIfPresent(_ value: String?, forKey key: Key) throws { try orNull(value, forKey: key) }
        func encodeIfPresent(_ value: Double?, forKey key: Key) throws { try orNull(value, forKey: key) }
        func encodeIfPresent(_ value: Float?, forKey key: Key) throws { try orNull(value, forKey: key) }
        func encodeIfPresent(_ value: Int?, forKey key: Key) throws { try orNull(value, forKey: key) }
        func encodeIfPresent(_ value: Int8?, forKey key: Key) throws { try orNull(value, forKey: key) }
        func encodeIfPresent(_ value: Int16?, forKey key: Key) throws { try orNull(value, forKey: key) }
        func encodeIfPresent(_ value: Int32?, forKey key: Key) throws { try orNull(value, forKey: key) }
        func encodeIfPresent(_ value: Int64?, forKey key: Key) throws { try orNull(value, forKey: key) }
        func encodeIfPresent(_ value: UInt?, forKey key: Key) throws { try orNull(value, forKey: key) }
        func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws { try orNull(value, forKey: key) }
        func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws { try orNull(value, forKey: key) }
        func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws { try orNull(value, forKey: key) }
        func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws { try orNull(value, forKey: key) }
        func nestedContainer<N: CodingKey>(keyedBy type: N.Type, forKey key: Key) -> KeyedEncodingContainer<N> {
            KeyedEncodingContainer(Keyed<N>(storage: Storage(), codingPath: codingPath + [key]))
        }
        func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer { Refusing(codingPath: codingPath + [key]) }
        func superEncoder() -> any Encoder { RecordEncoder(codingPath: codingPath) }
        func superEncoder(forKey key: Key) -> any Encoder { RecordEncoder(codingPath: codingPath + [key]) }
    }

    /// Containers a record's top level cannot be: every write through them throws.
    struct Refusing: UnkeyedEncodingContainer, SingleValueEncodingContainer {
        let codingPath: [any CodingKey]
        var count: Int { 0 }
        func refuse(_ value: Any) -> EncodingError {
            .invalidValue(value, .init(codingPath: codingPath, debugDescription: "a record encodes its properties by key (a struct or class with CodingKeys), not as one value or a list"))
        }
        func encodeNil() throws { throw refuse(Value.null) }
        func encode<T: Encodable>(_ value: T) throws { throw refuse(value) }
        func nestedContainer<N: CodingKey>(keyedBy type: N.Type) -> KeyedEncodingContainer<N> {
            KeyedEncodingContainer(Keyed<N>(storage: Storage(), codingPath: codingPath))
        }
        func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { self }
        func superEncoder() -> any Encoder { RecordEncoder(codingPath: codingPath) }
    }
}
