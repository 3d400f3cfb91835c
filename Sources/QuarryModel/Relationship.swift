// Relationship: a link from objects of one entity to objects of another,
// to-one or to-many (optionally ordered), with the inverse that keeps both
// sides consistent and the rule for what deleting the source does.
//
// Core Data quirks this file follows:
// - A to-many relationship's maximum count of 0 in Xcode's XML means "no
//   limit"; here that is `maxCount == nil`.
// - Xcode writes `minCount="1"` on to-one relationships whether or not they
//   are optional, so for to-one the counts carry no information of their
//   own. `Relationship` normalizes them (to-one: maxCount 1, minCount 1 when
//   required, 0 when optional) so models from YAML and XML compare equal.

/// What deleting an object does to the objects its relationship reaches.
public enum DeleteRule: String, Sendable, Equatable, CaseIterable {
    /// Clear the inverse on the destination objects (Core Data's default).
    case nullify = "Nullify"
    /// Delete the destination objects too.
    case cascade = "Cascade"
    /// Refuse to delete while the relationship is non-empty.
    case deny = "Deny"
    /// Do nothing: the destination keeps a dangling inverse.
    case noAction = "No Action"

    /// The spelling Quarry's YAML format uses.
    public var yamlName: String {
        switch self {
        case .nullify: return "nullify"
        case .cascade: return "cascade"
        case .deny: return "deny"
        case .noAction: return "noAction"
        }
    }
}

/// A relationship of an entity.
///
/// ```swift
/// let employees = Relationship(name: "employees", destination: "Employee",
///                              isToMany: true, inverse: "department", deleteRule: .cascade)
/// ```
public struct Relationship: Sendable, Equatable {
    public var name: String
    /// The name of the destination entity.
    public var destination: String
    public var isToMany: Bool
    /// A to-many relationship kept in order (an ordered set).
    public var isOrdered: Bool
    public var isOptional: Bool
    /// Fewest related objects (to-many), or 1 for a required to-one.
    public var minCount: Int
    /// Most related objects; nil for no limit; always 1 for to-one.
    public var maxCount: Int?
    /// The name of the relationship on the destination that points back.
    public var inverse: String?
    public var deleteRule: DeleteRule
    public var isTransient: Bool
    public var userInfo: [String: String]
    /// Core Data's `versionHashModifier` (see ``Entity/versionHashModifier``).
    public var versionHashModifier: String? {
        get { fileDetails.value.modifier }
        set { fileDetails.value.modifier = newValue }
    }
    /// The counts exactly as the model file gave them (Xcode's `minCount` /
    /// `maxCount`, absent meaning 0; the cached model's NSMinCount /
    /// NSMaxCount), before the normalization above; nil for models built in
    /// code or read from YAML. Core Data's version hash includes these raw
    /// values (a required to-one without `minCount` hashes 0, not 1).
    public var declaredMinCount: Int? {
        get { fileDetails.value.minCount }
        set { fileDetails.value.minCount = newValue }
    }
    public var declaredMaxCount: Int? {
        get { fileDetails.value.maxCount }
        set { fileDetails.value.maxCount = newValue }
    }
    /// Not part of equality (see FileDetail).
    private var fileDetails = FileDetail<(modifier: String?, minCount: Int?, maxCount: Int?)>((nil, nil, nil))

    public init(name: String, destination: String, isToMany: Bool = false, isOrdered: Bool = false,
                isOptional: Bool = true, minCount: Int = 0, maxCount: Int? = nil,
                inverse: String? = nil, deleteRule: DeleteRule = .nullify,
                isTransient: Bool = false, userInfo: [String: String] = [:]) {
        self.name = name
        self.destination = destination
        self.isToMany = isToMany
        self.isOrdered = isOrdered
        self.isOptional = isOptional
        if isToMany {
            self.minCount = minCount
            self.maxCount = maxCount == 0 ? nil : maxCount
        } else {
            self.minCount = isOptional ? 0 : 1
            self.maxCount = 1
        }
        self.inverse = inverse
        self.deleteRule = deleteRule
        self.isTransient = isTransient
        self.userInfo = userInfo
    }
}
