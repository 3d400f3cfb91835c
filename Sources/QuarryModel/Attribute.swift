// Attribute: one stored (or transient, or derived) value of an entity, and
// the types Core Data offers for it. The type's raw values are the names
// Xcode writes in `attributeType="..."`, so the XML reader needs no table.
//
// Core Data quirks this file follows:
// - Attributes are optional unless said otherwise in code and in Quarry's
//   YAML (NSAttributeDescription.isOptional defaults to true); the XML
//   format is the other way round (see XMLModelReader).
// - Minimum and maximum mean *length* for strings and binary data, and
//   instants for dates; Xcode stores them in different XML attributes.
import QuarrySyntax

/// The type of an attribute, named as Xcode's model editor names it.
public enum AttributeType: String, Sendable, Equatable, CaseIterable {
    case integer16 = "Integer 16"
    case integer32 = "Integer 32"
    case integer64 = "Integer 64"
    case double = "Double"
    case float = "Float"
    case decimal = "Decimal"
    case string = "String"
    case boolean = "Boolean"
    case date = "Date"
    case binary = "Binary"
    case uuid = "UUID"
    case uri = "URI"
    /// A value stored through a value transformer (an archived object).
    case transformable = "Transformable"
    case objectID = "ObjectID"
    /// Only for transient attributes: any value, never stored.
    case undefined = "Undefined"

    /// The spelling Quarry's YAML format uses (`integer64`, `uuid`, ...).
    public var yamlName: String {
        switch self {
        case .integer16: return "integer16"
        case .integer32: return "integer32"
        case .integer64: return "integer64"
        case .objectID: return "objectID"
        default: return rawValue.lowercased()
        }
    }

    /// Integer types, with the range their values must fit.
    public var integerRange: ClosedRange<Int64>? {
        switch self {
        case .integer16: return Int64(Int16.min)...Int64(Int16.max)
        case .integer32: return Int64(Int32.min)...Int64(Int32.max)
        case .integer64: return Int64.min...Int64.max
        default: return nil
        }
    }

    /// Integer, floating-point and decimal types.
    public var isNumeric: Bool {
        integerRange != nil || self == .double || self == .float || self == .decimal
    }

    /// Types whose minimum and maximum constrain a length.
    public var boundsAreLengths: Bool { self == .string || self == .binary }

    /// Whether minimum and maximum mean anything for this type.
    public var acceptsBounds: Bool { isNumeric || boundsAreLengths || self == .date }
}

/// An attribute of an entity.
///
/// ```swift
/// let age = Attribute(name: "age", type: .integer16, isOptional: true,
///                     minimum: .int(16), maximum: .int(120))
/// ```
public struct Attribute: Sendable, Equatable {
    public var name: String
    public var type: AttributeType
    /// May the value be nil when the object is saved?
    public var isOptional: Bool
    /// The value a new object starts with. Integers are `.int`, double and
    /// float `.double`, decimal `.decimal`, strings and URIs `.string`,
    /// dates `.date` (seconds since 2001-01-01 UTC), binary `.data`.
    public var defaultValue: Value?
    /// The smallest value allowed: a number of the attribute's kind, a length
    /// (`.int`) for strings and binary data, a `.date` for dates.
    public var minimum: Value?
    /// The largest value allowed, read as ``minimum`` is.
    public var maximum: Value?
    /// A pattern the whole string must match (ICU syntax, as MATCHES).
    public var regularExpression: String?
    /// Transient attributes live in memory only and are never stored.
    public var isTransient: Bool
    /// For derived attributes: the expression the store computes the value
    /// from (Core Data's `derivationExpression`, e.g. `employees.@count`).
    public var derivation: String?
    /// The value transformer of a transformable attribute.
    public var valueTransformerName: String?
    /// Binary data Core Data may keep outside the store file.
    public var allowsExternalBinaryDataStorage: Bool
    /// Free-form key/value pairs from the model editor.
    public var userInfo: [String: String]
    /// Whether a deletion keeps this attribute's last value in the store's
    /// persistent history as a tombstone (Core Data's
    /// `preservesValueInHistoryOnDeletion`; the model file's
    /// `preserveAfterDeletion`, or the userInfo key
    /// `preserveValueInHistoryOnDeletion`).
    public var preservesValueInHistoryOnDeletion = false
    /// Core Data's `versionHashModifier` (see ``Entity/versionHashModifier``).
    public var versionHashModifier: String? {
        get { modifierDetail.value }
        set { modifierDetail.value = newValue }
    }
    /// Not part of equality (see FileDetail).
    private var modifierDetail = FileDetail<String?>(nil)

    public init(name: String, type: AttributeType, isOptional: Bool = true,
                defaultValue: Value? = nil, minimum: Value? = nil, maximum: Value? = nil,
                regularExpression: String? = nil, isTransient: Bool = false,
                derivation: String? = nil, valueTransformerName: String? = nil,
                allowsExternalBinaryDataStorage: Bool = false, userInfo: [String: String] = [:]) {
        self.name = name
        self.type = type
        self.isOptional = isOptional
        self.defaultValue = defaultValue
        self.minimum = minimum
        self.maximum = maximum
        self.regularExpression = regularExpression
        self.isTransient = isTransient
        self.derivation = derivation
        self.valueTransformerName = valueTransformerName
        self.allowsExternalBinaryDataStorage = allowsExternalBinaryDataStorage
        self.userInfo = userInfo
    }
}
