// Model: the whole schema — entities in file order (order matters: it makes
// schema output, table creation and fixtures deterministic), the stored fetch
// request templates and the configurations. A plain value: build it in code,
// or read it from a file with `ModelReader`.
//
// Two models are equal when they mean the same schema; where each part sat in
// its file is kept on the side (`SourceMap`) for error messages only.
import QuarrySyntax

/// A Core Data–style object model.
///
/// ```swift
/// let model = try ModelReader.read(from: "Examples/Models/Company.yaml")
/// let employee = model.entity(named: "Employee")!
/// print(employee.allAttributes(in: model).map(\.name))
/// ```
public struct Model: Sendable, Equatable {
    /// Entities in file order.
    public var entities: [Entity] { didSet { reindex() } }
    /// Fetch request templates in file order.
    public var fetchRequestTemplates: [FetchRequestTemplate]
    public var configurations: [Configuration]
    /// Positions of the parts in the file read, for error messages.
    var sourceMap: SourceMap
    /// What the reader converted, clamped or ignored the way Core Data does
    /// (see ``ModelWarning``); empty for models built in code. Not part of
    /// equality: a model read with warnings means what it was read as.
    public internal(set) var warnings: [ModelWarning] = []
    private var indexByName: [String: Int] = [:]
    /// Positions of each entity's direct sub-entities, so that walking a
    /// hierarchy does not scan every entity per step (which made opening a
    /// store quadratic in the number of entities).
    private var childrenByName: [String: [Int]] = [:]

    public init(entities: [Entity], fetchRequestTemplates: [FetchRequestTemplate] = [],
                configurations: [Configuration] = []) {
        self.init(entities: entities, fetchRequestTemplates: fetchRequestTemplates,
                  configurations: configurations, sourceMap: SourceMap())
    }

    init(entities: [Entity], fetchRequestTemplates: [FetchRequestTemplate],
         configurations: [Configuration], sourceMap: SourceMap) {
        self.entities = entities
        self.fetchRequestTemplates = fetchRequestTemplates
        self.configurations = configurations
        self.sourceMap = sourceMap
        reindex()
    }

    private mutating func reindex() {
        indexByName = [:]
        // The first of duplicate names wins; validation reports the duplicate.
        for (i, e) in entities.enumerated() where indexByName[e.name] == nil { indexByName[e.name] = i }
        childrenByName = [:]
        for (i, e) in entities.enumerated() {
            if let parent = e.parent { childrenByName[parent, default: []].append(i) }
        }
    }

    /// The file the model was read from, or `"<model>"`.
    public var file: String { sourceMap.file }

    /// The entity named `name` (case-sensitive, as Core Data).
    public func entity(named name: String) -> Entity? {
        indexByName[name].map { entities[$0] }
    }

    /// Entity names in model order.
    public var entityNames: [String] { entities.map(\.name) }

    /// The direct sub-entities of the entity named `name`.
    public func subentities(of name: String) -> [Entity] {
        (childrenByName[name] ?? []).map { entities[$0] }
    }

    /// The fetch request template named `name`.
    public func fetchRequestTemplate(named name: String) -> FetchRequestTemplate? {
        fetchRequestTemplates.first { $0.name == name }
    }

    public static func == (a: Model, b: Model) -> Bool {
        a.entities == b.entities && a.fetchRequestTemplates == b.fetchRequestTemplates
            && a.configurations == b.configurations
    }
}
