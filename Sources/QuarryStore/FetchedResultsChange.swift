// A change set as a value: what one context event did to a controller's
// sections, by object ID, so that it can cross threads, be compared in
// tests and printed as JSON for tools. `applied(to:)` defines what the
// index paths mean, the way UITableView's batch updates read them:
//
//   1. renames (temporary → permanent IDs after a save) apply everywhere;
//   2. object deletes and the sources of moves are removed, by OLD index path;
//   3. deleted sections are removed, by OLD section index;
//   4. inserted sections are added (empty), by NEW section index, ascending;
//   5. object inserts and the destinations of moves are added, by NEW index
//      path, ascending;
//   6. updates change nothing in the structure (reload the row at its old
//      index path).
//
// The controller guarantees `change.applied(to: before) == after` for every
// change set it reports; the property tests check exactly that.
import Foundation

/// A controller's sections by object ID: what a list shows, as a value.
public struct FetchedResultsSnapshot: Equatable, Sendable, Codable, CustomStringConvertible {
    public struct Section: Equatable, Sendable, Codable {
        public var name: String
        public var objectIDs: [ObjectID]
        public init(name: String, objectIDs: [ObjectID]) {
            self.name = name
            self.objectIDs = objectIDs
        }
    }
    public var sections: [Section]
    public init(sections: [Section]) { self.sections = sections }

    public var description: String {
        sections.map { "\($0.name.debugDescription): \($0.objectIDs.map(\.description).joined(separator: " "))" }.joined(separator: "\n")
    }
}

/// One context event's effect on a controller's results.
///
/// ```swift
/// let before = controller.snapshot
/// try context.save()
/// // in the delegate: change.applied(to: before) == controller.snapshot
/// print(change.json)
/// ```
public struct FetchedResultsChange: Equatable, Sendable, Codable {
    public struct ObjectChange: Equatable, Sendable, Codable {
        public var type: FetchedResultsChangeType
        public var objectID: ObjectID
        /// Old index path: for deletes, moves and updates.
        public var from: IndexPath?
        /// New index path: for inserts, moves and updates.
        public var to: IndexPath?
    }
    public struct SectionChange: Equatable, Sendable, Codable {
        /// `.insert` or `.delete`.
        public var type: FetchedResultsChangeType
        public var name: String
        /// Old index for a delete, new index for an insert.
        public var index: Int
    }
    /// Section changes in order: deletes (descending), then inserts (ascending).
    public var sections: [SectionChange] = []
    /// Object changes in order: deletes (descending old index path), inserts
    /// (ascending new index path), moves, updates.
    public var objects: [ObjectChange] = []
    /// Objects in the results whose ID changed (a save made it permanent).
    public var renamed: [ObjectID: ObjectID] = [:]

    public init(sections: [SectionChange] = [], objects: [ObjectChange] = [], renamed: [ObjectID: ObjectID] = [:]) {
        self.sections = sections
        self.objects = objects
        self.renamed = renamed
    }

    /// No structural change and no rename.
    public var isEmpty: Bool { sections.isEmpty && objects.isEmpty && renamed.isEmpty }

    /// The sections `old` becomes under this change (see the file's header).
    public func applied(to old: FetchedResultsSnapshot) -> FetchedResultsSnapshot {
        var sections = old.sections.map { s in
            FetchedResultsSnapshot.Section(name: s.name, objectIDs: s.objectIDs.map { renamed[$0] ?? $0 })
        }
        let removals = objects.filter { $0.type == .delete || $0.type == .move }.compactMap(\.from)
        for path in removals.sorted(by: >) where sections.indices.contains(path.section)
            && sections[path.section].objectIDs.indices.contains(path.item) {
            sections[path.section].objectIDs.remove(at: path.item)
        }
        for change in self.sections.filter({ $0.type == .delete }).sorted(by: { $0.index > $1.index })
        where sections.indices.contains(change.index) {
            sections.remove(at: change.index)
        }
        for change in self.sections.filter({ $0.type == .insert }).sorted(by: { $0.index < $1.index }) {
            sections.insert(.init(name: change.name, objectIDs: []), at: min(change.index, sections.count))
        }
        let additions = objects.filter { $0.type == .insert || $0.type == .move }.compactMap { c in c.to.map { ($0, c.objectID) } }
        for (path, id) in additions.sorted(by: { $0.0 < $1.0 }) where sections.indices.contains(path.section) {
            let s = path.section
            sections[s].objectIDs.insert(id, at: min(path.item, sections[s].objectIDs.count))
        }
        return FetchedResultsSnapshot(sections: sections)
    }

    // MARK: - JSON

    /// The change as JSON, keys sorted (stable for golden files):
    /// `{"objects":[{"from":[0,2],"object":"Employee/7","type":"move","to":[1,0]}],"renamed":{},"sections":[…]}`.
    public var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(self)) ?? Data(), as: UTF8.self)
    }

    public init(json: String) throws {
        self = try JSONDecoder().decode(FetchedResultsChange.self, from: Data(json.utf8))
    }

    enum CodingKeys: String, CodingKey { case sections, objects, renamed }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        sections = try c.decode([SectionChange].self, forKey: .sections)
        objects = try c.decode([ObjectChange].self, forKey: .objects)
        let texts = try c.decode([String: ObjectID].self, forKey: .renamed)
        renamed = Dictionary(uniqueKeysWithValues: try texts.map { (try ObjectID(parsing: $0.key), $0.value) })
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(sections, forKey: .sections)
        try c.encode(objects, forKey: .objects)
        try c.encode(Dictionary(uniqueKeysWithValues: renamed.map { ($0.key.description, $0.value) }), forKey: .renamed)
    }
}

extension FetchedResultsChange.ObjectChange {
    enum CodingKeys: String, CodingKey { case type, object, from, to }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        type = try c.decode(FetchedResultsChangeType.self, forKey: .type)
        objectID = try c.decode(ObjectID.self, forKey: .object)
        from = try c.decodeIfPresent([Int].self, forKey: .from).map { IndexPath(indexes: $0) }
        to = try c.decodeIfPresent([Int].self, forKey: .to).map { IndexPath(indexes: $0) }
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(type, forKey: .type)
        try c.encode(objectID, forKey: .object)
        try c.encodeIfPresent(from.map { Array($0) }, forKey: .from)
        try c.encodeIfPresent(to.map { Array($0) }, forKey: .to)
    }
}

/// Object IDs in JSON are their description, `Entity/primaryKey`.
extension ObjectID: Codable {
    init(parsing text: String) throws {
        guard let slash = text.lastIndex(of: "/"), let pk = Int64(text[text.index(after: slash)...]) else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "not an object ID: \(text)"))
        }
        self.init(entity: String(text[..<slash]), primaryKey: pk)
    }

    public init(from decoder: Decoder) throws {
        try self.init(parsing: try decoder.singleValueContainer().decode(String.self))
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(description)
    }
}
