// Factories: what a factories file (or test code) says about the data to
// make — counts per entity, a generator per attribute, a distribution per
// relationship — kept as written (values as text, with their place in the
// file) until the plan reads them against the model. That way one value is
// read by the attribute's type ("2024-01-31" is a date for a date attribute,
// a string for a string one), and every mistake found later still points at
// its line. The YAML format is documented in Examples/Fixtures/README.md.

/// Everything a factories file says, by entity name.
///
/// ```swift
/// var factories = Factories()
/// factories.entities["Task"] = EntityFactory(count: 10_000,
///     attributes: ["task": AttributeFactory(.sequence("Task {n}"))])
/// ```
public struct Factories: Sendable, Equatable {
    /// The file read, for error messages (`"<factories>"` when built in code).
    public var file: String
    /// The seed to use when the caller gives none.
    public var seed: UInt64?
    /// The instant date windows are placed around (seconds since 2001-01-01 UTC).
    public var referenceDate: Double?
    public var entities: [String: EntityFactory]
    /// Where each entity's factory starts in the file.
    var entityLocations: [String: FixtureLocation] = [:]

    public init(file: String = "<factories>", seed: UInt64? = nil, referenceDate: Double? = nil,
                entities: [String: EntityFactory] = [:]) {
        self.file = file
        self.seed = seed
        self.referenceDate = referenceDate
        self.entities = entities
    }

    func location(of entity: String) -> FixtureLocation? { entityLocations[entity] }
}

/// What to make of one entity.
public struct EntityFactory: Sendable, Equatable {
    /// How many objects; nil leaves it to `--count`, a parent's `per`, or the default.
    public var count: Int?
    public var attributes: [String: AttributeFactory]
    public var relationships: [String: RelationshipFactory]
    var countLocation: FixtureLocation?
    var propertyLocations: [String: FixtureLocation] = [:]

    public init(count: Int? = nil, attributes: [String: AttributeFactory] = [:],
                relationships: [String: RelationshipFactory] = [:]) {
        self.count = count
        self.attributes = attributes
        self.relationships = relationships
    }
}

/// A scalar as written in the factories file, with where it was written.
public struct FactoryValue: Sendable, Equatable, ExpressibleByStringLiteral {
    public var text: String
    /// A YAML null (`~`, `null`): the attribute's nil.
    public var isNull: Bool
    var location: FixtureLocation?

    public init(_ text: String, isNull: Bool = false) {
        self.text = text
        self.isNull = isNull
    }

    public init(stringLiteral text: String) { self.init(text) }
}

/// The shape of a distribution of counts or numbers.
public enum DistributionShape: String, Sendable, Equatable, CaseIterable {
    /// Every value (or parent) equally likely.
    case uniform
    /// A bell curve around the middle of the range.
    case normal
    /// A few values (parents) take most: weight 1/rank^skew.
    case zipf
}

/// How to generate one attribute's values.
public enum GeneratorSpec: Sendable, Equatable {
    /// Text with `{n}` (1-based row number, `{n:5}` zero-padded), or for
    /// numbers the first value; then `step` per row.
    case sequence(FactoryValue, step: Int64)
    /// One of the values, equally likely or by `weights`.
    case oneOf([FactoryValue], weights: [Int]?)
    /// A number (or date) between two bounds, both included.
    case range(FactoryValue, FactoryValue, shape: DistributionShape, step: FactoryValue?)
    /// A string matching the regular expression (a common subset of ICU's).
    case pattern(String)
    /// A Quarry expression; `$n`, `$index`, `$count`, `$random` are set and
    /// SELF is the row's values so far.
    case expression(String)
    /// Always this value.
    case value(FactoryValue)
    /// A named kind of realistic value (`person name`, `email`, `city`, ...).
    case kind(String)
    /// Booleans: true with this probability.
    case ratio(Double)
}

/// One attribute's factory: a generator (or the heuristic one when nil) and
/// a share of nulls.
public struct AttributeFactory: Sendable, Equatable {
    public var generator: GeneratorSpec?
    /// Share of rows left null (optional attributes only).
    public var nullRatio: Double?
    var location: FixtureLocation?
    /// Where the generator's own value sits (for pattern and expression errors).
    var generatorLocation: FixtureLocation?

    public init(_ generator: GeneratorSpec? = nil, nullRatio: Double? = nil) {
        self.generator = generator
        self.nullRatio = nullRatio
    }
}

/// How a relationship is wired.
public struct RelationshipFactory: Sendable, Equatable {
    public var distribution: DistributionShape
    /// Related objects per object: `per: 3` or `per: [1, 5]`. On a to-many
    /// whose inverse is to-one, the count of children per parent (and, when
    /// the children have no count of their own, what makes their count).
    public var per: ClosedRange<Int>?
    /// Zipf exponent (1 = classic Zipf; larger is more skewed).
    public var skew: Double
    /// Share of objects with no related object (optional to-one only).
    public var nullRatio: Double?
    var location: FixtureLocation?

    public init(distribution: DistributionShape = .uniform, per: ClosedRange<Int>? = nil,
                skew: Double = 1, nullRatio: Double? = nil) {
        self.distribution = distribution
        self.per = per
        self.skew = skew
        self.nullRatio = nullRatio
    }
}
