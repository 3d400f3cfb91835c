// The typed-record API of a context and a store: fetch into any Decodable
// type, insert and update from any Encodable one (RecordDecoder.swift,
// RecordEncoder.swift say how values convert). Keys are checked against the
// model: reading, by the objects' entity (B002 with a "did you mean");
// writing, by `setValue`, which refuses an unknown key before anything
// changes — the record's values are all checked before the first is set.
import Foundation

extension Context {
    /// The objects `request` selects, each decoded as `T`.
    ///
    /// ```swift
    /// struct Employee: Decodable { var name: String; var salary: Int; var department: Department? }
    /// struct Department: Decodable { var name: String }
    /// let rows = try context.fetch(FetchRequest(entity: "Employee"), as: Employee.self)
    /// ```
    public func fetch<T: Decodable>(_ request: FetchRequest, as type: T.Type, engine: FetchEngine = .sql) throws -> [T] {
        try fetch(request, engine: engine).map { try Self.decode(T.self, from: $0, model: store.model) }
    }

    /// A new object of `entity` with the record's values (nil properties leave the model's default).
    @discardableResult
    public func insert(_ entity: String, from record: some Encodable) throws -> ManagedObject {
        let values = try RecordEncoder.values(of: record)
        guard let e = store.model.entity(named: entity) else {
            throw ContextError.unknownEntity(entity, suggestion: Suggestions.closest(to: entity, among: store.model.entities.map(\.name)))
        }
        try Self.checkKeys(values, of: e, in: store.model)
        let object = try insert(entity)
        for (key, value) in values where !value.isNull { try object.setValue(value, forKey: key) }
        return object
    }

    static func decode<T: Decodable>(_ type: T.Type, from object: ManagedObject, model: Model) throws -> T {
        try T(from: RecordDecoder(source: RecordSource(value: .object(ObjectReference(object)), entity: object.entity, model: model)))
    }

    /// Every key a record writes names an attribute of `entity`: refused all
    /// together before any value is set.
    static func checkKeys(_ values: [(String, Value)], of entity: Entity, in model: Model) throws {
        for (key, _) in values where entity.attribute(named: key, in: model) == nil {
            let names = entity.allAttributes(in: model).map(\.name)
            throw ContextError.unknownKey(key, entity: entity.name, suggestion: Suggestions.closest(to: key, among: names))
        }
    }
}

extension ManagedObject {
    /// The object decoded as `T` (its relationships as nested records).
    public func decode<T: Decodable>(as type: T.Type) throws -> T {
        guard let context else { throw ContextError.objectNotInContext(objectID) }
        return try Context.decode(T.self, from: self, model: context.store.model)
    }

    /// Sets every property the record encodes (nil ones clear the attribute).
    public func update(from record: some Encodable) throws {
        let values = try RecordEncoder.values(of: record)
        try Context.checkKeys(values, of: entity, in: context?.store.model ?? Model(entities: [entity]))
        for (key, value) in values { try setValue(value, forKey: key) }
    }
}

extension SQLStore {
    /// The objects `request` selects, read straight from the store (no context), each decoded as `T`.
    public func fetch<T: Decodable>(_ request: FetchRequest, as type: T.Type, engine: FetchEngine = .sql) throws -> [T] {
        try fetch(request, engine: engine).map { object in
            try T(from: RecordDecoder(source: RecordSource(value: .object(ObjectReference(object)), entity: model.entity(named: object.entity), model: model)))
        }
    }
}
