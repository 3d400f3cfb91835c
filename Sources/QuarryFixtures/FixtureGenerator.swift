// FixtureGenerator: the library's front door. Give it a model, factories,
// a seed and counts; it plans (every check happens in `init`), then streams
// records — objects entity by entity in model order, then join-table links —
// to a writer or to you, one at a time. Nothing is kept per row beyond the
// hashes that uniqueness needs, so a million rows take as much memory as ten.
//
// The same model, factories, seed and counts give the same records, in the
// same order, with the same bytes, on every machine.
import Foundation

/// One generated object: its entity, primary key and column values.
public struct FixtureObject: Sendable {
    public let entity: String
    /// The table it goes into (the root entity of its hierarchy).
    public let table: String
    /// 1-based within its table.
    public let primaryKey: Int64
    /// Property names: attributes, then to-one relationships.
    public let properties: [String]
    /// Store column names, in the same order.
    public let columns: [String]
    /// Values in the same order; a to-one relationship is the target's primary key (or null).
    public let values: [Value]
    /// Index of the entity among the plan's concrete entities (for writers).
    let entityIndex: Int

    /// The value of a property.
    public subscript(property: String) -> Value? {
        properties.firstIndex(of: property).map { values[$0] }
    }
}

/// One row of a join table (a many-to-many, or a to-many without inverse).
public struct FixtureLink: Sendable, Equatable {
    public let table: String
    public let source: Int64
    public let target: Int64
    /// The position within the source's list, for ordered relationships.
    public let position: Int?
}

public enum FixtureRecord: Sendable {
    case object(FixtureObject)
    case link(FixtureLink)
}

/// How far a run is, for progress bars.
public struct FixtureProgress: Sendable {
    public let entity: String
    public let done: Int
    public let total: Int
}

/// Generates fixtures for a model.
///
/// ```swift
/// let model = try ModelReader.read(from: "Examples/Models/Company.yaml")
/// let factories = try FactoriesReader.read(from: "Examples/Fixtures/company.yaml")
/// let generator = try FixtureGenerator(model: model, factories: factories, seed: 42, counts: ["Employee": 1_000])
/// try generator.write(to: "company.sqlite", format: .sqlite)
/// var records = generator.records()
/// while let record = try records.next() { print(record) }
/// ```
public final class FixtureGenerator {
    public let model: Model
    public let factories: Factories
    public let seed: UInt64
    public let edgeCases: Bool
    let counts: [String: Int]
    /// Called every few thousand rows while writing.
    public var progress: ((FixtureProgress) -> Void)?

    /// Plans the run; throws for anything wrong with the factories, the
    /// counts or the model's constraints, before anything is generated.
    public init(model: Model, factories: Factories = Factories(), seed: UInt64? = nil,
                counts: [String: Int] = [:], edgeCases: Bool = false) throws(FixtureError) {
        self.model = model
        self.factories = factories
        self.seed = seed ?? factories.seed ?? 0
        self.counts = counts
        self.edgeCases = edgeCases
        for (name, n) in counts where n < 0 {
            throw FixtureError(.invalidCount, "--count \(name)=\(n): a count cannot be negative", at: .commandLine)
        }
        _ = try makePlan()
    }

    /// A fresh plan: generators and wirings hold the random streams' state,
    /// so every run starts from its own.
    func makePlan(layout: StoreLayoutRecord? = nil) throws(FixtureError) -> FixturePlan {
        try FixturePlan(model: model, factories: factories, seed: seed, counts: counts, edgeCases: edgeCases, layout: layout)
    }

    /// Objects per concrete entity, as planned.
    public var plannedCounts: [String: Int] {
        get throws(FixtureError) {
            Dictionary(uniqueKeysWithValues: try makePlan().entities.map { ($0.entity.name, $0.count) })
        }
    }

    /// A stream of every record, objects first (model order), then links.
    public func records() -> FixtureStream { records(layout: nil) }

    /// The records under a store's names (`layout`: its saved layout).
    func records(layout: StoreLayoutRecord?) -> FixtureStream {
        FixtureStream(plan: Result { () throws(FixtureError) in try makePlan(layout: layout) }, progress: progress)
    }

    /// The objects of one entity (all generated; the others are discarded).
    /// For tests and small runs: this holds the entity's objects in memory.
    public func objects(of entity: String) throws(FixtureError) -> [FixtureObject] {
        var stream = records()
        var result: [FixtureObject] = []
        while let record = try stream.next() {
            if case .object(let o) = record, o.entity == entity { result.append(o) }
        }
        return result
    }
}

/// Records one at a time; `next()` throws when a value cannot be made.
public struct FixtureStream {
    private let planResult: Result<FixturePlan, FixtureError>
    private var entityIndex = 0
    private var row = 0
    private var linkIndex = 0
    private var links: LinkIterator?
    private let progress: ((FixtureProgress) -> Void)?
    private var done = 0
    private let total: Int

    init(plan: Result<FixturePlan, FixtureError>, progress: ((FixtureProgress) -> Void)?) {
        planResult = plan
        self.progress = progress
        total = (try? plan.get().entities.reduce(0) { $0 + $1.count }) ?? 0
    }

    var plan: FixturePlan? { try? planResult.get() }

    public mutating func next() throws(FixtureError) -> FixtureRecord? {
        let plan = try planResult.get()
        while entityIndex < plan.entities.count {
            let entity = plan.entities[entityIndex]
            if row < entity.count {
                defer { row += 1 }
                if let progress, done % 16_384 == 0 { progress(FixtureProgress(entity: entity.entity.name, done: done, total: total)) }
                done += 1
                return .object(try Self.object(entity, row: row, index: entityIndex))
            }
            entityIndex += 1
            row = 0
        }
        while linkIndex < plan.links.count {
            if links == nil { links = plan.links[linkIndex].makeIterator() }
            if let (s, t, p) = try links!.next() {
                let link = plan.links[linkIndex]
                let (source, target) = link.swapped ? (t, s) : (s, t)
                return .link(FixtureLink(table: link.table, source: source, target: target, position: link.ordered ? p : nil))
            }
            links = nil
            linkIndex += 1
        }
        if let progress, total > 0 { progress(FixtureProgress(entity: "", done: total, total: total)) }
        return nil
    }

    /// The values of row `row` of an entity.
    static func values(_ plan: EntityPlan, row: Int) throws(FixtureError) -> [Value] {
        var values: [Value] = []
        values.reserveCapacity(plan.columns.count)
        for g in plan.generators.indices {
            values.append(try plan.generators[g].next(row: row, count: plan.count, values: values, names: plan.properties))
        }
        for w in plan.wirings { values.append(w.next().map(Value.int) ?? .null) }
        for c in plan.constraints.indices {
            var tries = 0
            while true {
                let parts = plan.constraints[c].indexes.map { values[$0] }
                if parts.contains(where: \.isNull) || plan.constraints[c].seen.insert(ValueHash.of(parts)) { break }
                tries += 1
                if tries > AttributeGenerator.attempts {
                    let names = plan.constraints[c].indexes.map { plan.properties[$0] }.joined(separator: ", ")
                    throw FixtureError(.impossibleUniqueness,
                                       "\(plan.entity.name): [\(names)] must be unique together, but row \(row + 1) repeats an earlier row in \(tries) tries; widen their generators",
                                       at: plan.countLocation)
                }
                for i in plan.constraints[c].indexes where i < plan.generators.count {
                    values[i] = try plan.generators[i].next(row: row, count: plan.count, values: Array(values[..<i]), names: plan.properties, retry: true)
                }
            }
        }
        return values
    }

    static func object(_ plan: EntityPlan, row: Int, index: Int) throws(FixtureError) -> FixtureObject {
        FixtureObject(entity: plan.entity.name, table: plan.table, primaryKey: plan.firstKey + Int64(row),
                      properties: plan.properties, columns: plan.columns, values: try values(plan, row: row), entityIndex: index)
    }
}
