// Typed records: any Decodable type read from fetched objects (as GRDB's
// FetchableRecord does), key by key through the objects' `value(forKey:)`.
// A property of the type is an attribute (String, integers, Double, Float,
// Bool, Date, Decimal, UUID, URL, Data; optional or not), a to-one
// relationship decoded as another record, or a to-many decoded as an array of
// records. Each key the type asks for is checked against the model (through
// the object: `value(forKey:)` is nil only for a key its entity lacks), so a
// misspelt key is B002 with a "did you mean", even for an optional property
// that would otherwise quietly read nil. Integers are converted exactly: a
// value that does not fit the property's type is an error, never truncated.
import Foundation

/// Where a record reads from: a fetched object (context or store), a
/// related object, or a dictionary row.
struct RecordSource {
    let value: Value
    /// The entity (for messages and suggestions), when the source is an object of the model.
    let entity: Entity?
    let model: Model?

    func value(forKey key: String) -> Value? {
        switch value {
        case .object(let ref): return ref.object.value(forKey: key)
        case .dictionary(let d): return d[key]
        default: return nil
        }
    }

    /// The refusal of a key the source does not have.
    func unknownKey(_ key: String, codingPath: [any CodingKey]) -> any Error {
        if let entity, let model {
            let names = entity.allProperties(in: model).map(\.name)
            return ContextError.unknownKey(key, entity: entity.name, suggestion: Suggestions.closest(to: key, among: names))
        }
        return DecodingError.keyNotFound(RecordKey(key), .init(codingPath: codingPath, debugDescription: "no value for '\(key)'"))
    }

    func related(_ v: Value) -> RecordSource {
        guard case .object(let ref) = v, let model else { return RecordSource(value: v, entity: nil, model: model) }
        let entity = (ref.object as? ManagedObject)?.entity ?? (ref.object as? StoredObject).flatMap { model.entity(named: $0.entity) }
        return RecordSource(value: v, entity: entity, model: model)
    }
}

struct RecordKey: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(_ s: String) { stringValue = s }
    init?(stringValue: String) { self.stringValue = stringValue }
    init(intValue: Int) { stringValue = "\(intValue)"; self.intValue = intValue }
}

struct RecordDecoder: Decoder {
    let source: RecordSource
    var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(Keyed<Key>(source: source, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        switch source.value {
        case .array(let items), .set(let items), .orderedSet(let items):
            return Unkeyed(items: items, parent: source, codingPath: codingPath)
        default:
            throw DecodingError.typeMismatch([Any].self, .init(codingPath: codingPath, debugDescription: "\(source.value.typeName) is not a to-many relationship"))
        }
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        Single(value: source.value, parent: source, codingPath: codingPath)
    }

    /// A value as `T`: Foundation's types from their Value cases, numbers
    /// exactly, records and arrays of records through a nested decoder.
    static func decode<T: Decodable>(_ type: T.Type, from value: Value, parent: RecordSource, codingPath: [any CodingKey]) throws -> T {
        func mismatch() -> DecodingError {
            .typeMismatch(T.self, .init(codingPath: codingPath, debugDescription: "\(Printer.format(value)) (\(value.typeName)) is not a \(T.self)"))
        }
        switch T.self {
        case is Date.Type: guard let d = value.dateValue else { throw mismatch() }; return d as! T
        case is Decimal.Type: guard let d = value.decimalValue else { throw mismatch() }; return d as! T
        case is UUID.Type: guard let u = value.uuidValue else { throw mismatch() }; return u as! T
        case is Data.Type: guard let d = value.dataValue else { throw mismatch() }; return d as! T
        case is URL.Type: guard let u = value.urlValue else { throw mismatch() }; return u as! T
        case is Value.Type: return value as! T
        default: return try T(from: RecordDecoder(source: parent.related(value), codingPath: codingPath))
        }
    }

    struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let source: RecordSource
        let codingPath: [any CodingKey]
        var allKeys: [Key] {
            guard let entity = source.entity, let model = source.model else {
                if case .dictionary(let d) = source.value { return d.keys.compactMap(Key.init(stringValue:)) }
                return []
            }
            return entity.allProperties(in: model).compactMap { Key(stringValue: $0.name) }
        }

        func lookup(_ key: Key) throws -> Value {
            guard let v = source.value(forKey: key.stringValue) else { throw source.unknownKey(key.stringValue, codingPath: codingPath + [key]) }
            return v
        }

        /// True for a key the source has; a key its entity lacks throws
        /// (`decodeIfPresent` asks this first, so it cannot hide a typo).
        func contains(_ key: Key) -> Bool {
            source.value(forKey: key.stringValue) != nil || source.entity != nil
        }
        func decodeNil(forKey key: Key) throws -> Bool { try lookup(key).isNull }
        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            let v = try lookup(key)
            if v.isNull, !(T.self is Value.Type) {
                throw DecodingError.valueNotFound(T.self, .init(codingPath: codingPath + [key], debugDescription: "'\(key.stringValue)' is nil"))
            }
            return try Single(value: v, parent: source, codingPath: codingPath + [key]).decode(T.self)
        }
        func nestedContainer<N: CodingKey>(keyedBy type: N.Type, forKey key: Key) throws -> KeyedDecodingContainer<N> {
            try RecordDecoder(source: source.related(lookup(key)), codingPath: codingPath + [key]).container(keyedBy: N.self)
        }
        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            try RecordDecoder(source: source.related(lookup(key)), codingPath: codingPath + [key]).unkeyedContainer()
        }
        func superDecoder() throws -> any Decoder { RecordDecoder(source: source, codingPath: codingPath) }
        func superDecoder(forKey key: Key) throws -> any Decoder { RecordDecoder(source: source, codingPath: codingPath + [key]) }
    }

    struct Unkeyed: UnkeyedDecodingContainer {
        let items: [Value]
        let parent: RecordSource
        let codingPath: [any CodingKey]
        var currentIndex = 0
        var count: Int? { items.count }
        var isAtEnd: Bool { currentIndex >= items.count }

        mutating func next() throws -> Value {
            guard !isAtEnd else {
                throw DecodingError.valueNotFound(Value.self, .init(codingPath: codingPath, debugDescription: "past the last of \(items.count) elements"))
            }
            defer { currentIndex += 1 }
            return items[currentIndex]
        }
        mutating func decodeNil() throws -> Bool {
            if !isAtEnd, items[currentIndex].isNull { currentIndex += 1; return true }
            return false
        }
        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
            let path = codingPath + [RecordKey(intValue: currentIndex)]
            return try Single(value: next(), parent: parent, codingPath: path).decode(T.self)
        }
        mutating func nestedContainer<N: CodingKey>(keyedBy type: N.Type) throws -> KeyedDecodingContainer<N> {
            try RecordDecoder(source: parent.related(next()), codingPath: codingPath).container(keyedBy: N.self)
        }
        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
            try RecordDecoder(source: parent.related(next()), codingPath: codingPath).unkeyedContainer()
        }
        mutating func superDecoder() throws -> any Decoder { RecordDecoder(source: parent.related(try next()), codingPath: codingPath) }
    }

    struct Single: SingleValueDecodingContainer {
        let value: Value
        let parent: RecordSource
        let codingPath: [any CodingKey]

        func mismatch<T>(_ t: T.Type) -> DecodingError {
            .typeMismatch(T.self, .init(codingPath: codingPath, debugDescription: "\(Printer.format(value)) (\(value.typeName)) is not a \(T.self)"))
        }
        func integer<T: FixedWidthInteger>(_ t: T.Type) throws -> T {
            guard let i = value.int64Value else { throw mismatch(T.self) }
            guard let exact = T(exactly: i) else {
                throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "\(i) does not fit in \(T.self)"))
            }
            return exact
        }

        func decodeNil() -> Bool { value.isNull }
        func decode(_ type: Bool.Type) throws -> Bool { guard let b = value.boolValue else { throw mismatch(Bool.self) }; return b }
        func decode(_ type: String.Type) throws -> String { guard let s = value.stringValue else { throw mismatch(String.self) }; return s }
        func decode(_ type: Double.Type) throws -> Double { guard let d = value.doubleValue else { throw mismatch(Double.self) }; return d }
        func decode(_ type: Float.Type) throws -> Float { guard let d = value.doubleValue else { throw mismatch(Float.self) }; return Float(d) }
        func decode(_ type: Int.Type) throws -> Int { try integer(Int.self) }
        func decode(_ type: Int8.Type) throws -> Int8 { try integer(Int8.self) }
        func decode(_ type: Int16.Type) throws -> Int16 { try integer(Int16.self) }
        func decode(_ type: Int32.Type) throws -> Int32 { try integer(Int32.self) }
        func decode(_ type: Int64.Type) throws -> Int64 { try integer(Int64.self) }
        func decode(_ type: UInt.Type) throws -> UInt { try integer(UInt.self) }
        func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(UInt8.self) }
        func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(UInt16.self) }
        func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(UInt32.self) }
        func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(UInt64.self) }
        func decode<T: Decodable>(_ type: T.Type) throws -> T {
            try RecordDecoder.decode(T.self, from: value, parent: parent, codingPath: codingPath)
        }
    }
}
