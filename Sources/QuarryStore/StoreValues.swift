// Values as the SQLite layout stores them and as they come back: booleans as
// 0/1, dates as seconds since 2001 (REAL), decimals as REAL, UUIDs and data as
// BLOBs. A value of the wrong type for its attribute is refused on the way in
// rather than silently converted by SQLite's column affinity. Strings are
// stored in NFC (canonical composition): see `storable`.
import Foundation

enum StoreValues {
    static func storable(_ v: Value, for attribute: Attribute, entity: String) throws -> Value {
        // A transformable value becomes its transformer's bytes (StoreValues+Transformable.swift).
        if attribute.type == .transformable { return try transformed(v, for: attribute, entity: entity) }
        return try storable(v, type: attribute.type, key: attribute.name, entity: entity)
    }

    /// `storable` from the two parts of the attribute it reads: hot loops
    /// keep these at hand rather than copy an `Attribute` out per value.
    static func storable(_ v: Value, type: AttributeType, key: String, entity: String) throws -> Value {
        func mismatch() -> StoreError {
            .typeMismatch(key: key, entity: entity, expected: type.rawValue, got: v.typeName)
        }
        if v.isNull { return .null }
        switch type {
        case .integer16, .integer32, .integer64:
            let n: Int64
            switch v {
            case .int(let i): n = i
            case .bool(let b): n = b ? 1 : 0
            case .double(let d) where d == d.rounded() && abs(d) < 9.2e18: n = Int64(d)
            default: throw mismatch()
            }
            // Never a value the type cannot hold (SQLite would keep it).
            if type != .integer64, let range = type.integerRange, !range.contains(n) {
                throw StoreError.outOfRange(key: key, entity: entity, value: v, type: type.yamlName,
                                            range: "\(range.lowerBound)…\(range.upperBound)")
            }
            return .int(n)
        case .boolean:
            switch v {
            case .bool(let b): return .int(b ? 1 : 0)
            case .int(let i) where i == 0 || i == 1: return v
            default: throw mismatch()
            }
        case .double, .float, .decimal:
            switch v {
            case .int(let i): return .double(Double(i))
            case .double: return v
            case .decimal(let d): return .double(NSDecimalNumber(decimal: d).doubleValue)
            default: throw mismatch()
            }
        case .string, .uri:
            // Stored in canonical composition (NFC), so that SQLite's byte order
            // and equality agree with the evaluator's canonical-equivalence rules.
            guard case .string(let text) = v else { throw mismatch() }
            return .string(StoredText.composed(text))
        case .date:
            switch v {
            case .date: return v
            case .int(let i): return .date(Double(i))
            case .double(let d): return .date(d)
            default: throw mismatch()
            }
        case .uuid:
            guard case .uuid = v else { throw mismatch() }
            return v
        case .binary:
            guard case .data = v else { throw mismatch() }
            return v
        default:
            throw mismatch()
        }
    }

    /// How to read a column of an attribute type back into a Value.
    static func kind(_ type: AttributeType) -> SQLValueKind {
        switch type {
        case .boolean: return .bool
        case .integer16, .integer32, .integer64: return .int
        case .double, .float, .decimal: return .double
        case .date: return .date
        case .uuid: return .uuid
        case .binary: return .data
        case .string, .uri: return .string
        default: return .automatic
        }
    }
}

extension Attribute {
    /// The attribute's default as a SQLite store keeps it (a date as seconds
    /// since 2001, a boolean as 0/1, …), or nil without one: what a
    /// migration writes into a new column (Core Data's migration too,
    /// QuarryCoreData/CoreDataMigration.swift).
    public func storedDefault(entity: String) throws -> Value? {
        guard let d = defaultValue else { return nil }
        return try StoreValues.storable(d, for: self, entity: entity)
    }
}
