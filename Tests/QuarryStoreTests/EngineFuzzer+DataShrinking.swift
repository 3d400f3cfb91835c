// The differential runner's second shrinking step: once the predicate is as
// small as it gets (EngineFuzzer.shrink), the data it runs on is made small
// too. The store's contents become a list of objects (attribute values,
// nil included) and relationship links; a candidate is rebuilt into an
// empty store per engine and kept when the engines still disagree. Objects
// go first (halves, then quarters… then one at a time, ddmin's greedy
// form), then links, then attribute values (set to nil). The result prints
// as a `quarry` script of INSERTs and links and is written, with the
// predicate, to a SQLite store a person can open with the printed commands.
import Foundation
@testable import QuarryStore

/// A store's data as facts that can be dropped one at a time.
struct FuzzDataSet: CustomStringConvertible {
    /// An object: its entity, its key in the source store (its identity
    /// here), and every stored attribute's value (nil as `.null`).
    struct Object {
        var id: ObjectID
        var values: [(name: String, value: Value)]
    }

    /// A relationship from one object to another, kept on one side only: a
    /// to-one, or a to-many whose inverse is not a to-one (many-to-many,
    /// recorded from the side whose name sorts first).
    struct Link: Equatable {
        var source: ObjectID, relationship: String, target: ObjectID
    }

    var objects: [Object]
    var links: [Link]

    /// Every object of `store` with its attributes and relationships.
    static func read(_ store: SQLStore) throws -> FuzzDataSet {
        let model = store.model
        var seen = Set<ObjectID>()
        var objects: [Object] = []
        var links: [Link] = []
        for entity in model.entities where !entity.isAbstract {
            for object in try store.fetch(FetchRequest(entity: entity.name)) where object.id.entity == entity.name && seen.insert(object.id).inserted {
                let values = entity.allAttributes(in: model).filter { !$0.isTransient }.map { ($0.name, object.value(forKey: $0.name) ?? .null) }
                objects.append(Object(id: object.id, values: values))
                for r in entity.allRelationships(in: model) where recordsLinks(r, of: entity, in: model) {
                    for target in targets(object.value(forKey: r.name)) {
                        links.append(Link(source: object.id, relationship: r.name, target: target))
                    }
                }
            }
        }
        return FuzzDataSet(objects: objects, links: links, toOne: toOneRelationships(model))
    }

    /// (entity, relationship) for every to-one of `model`, for the script.
    static func toOneRelationships(_ model: Model) -> Set<String> {
        Set(model.entities.flatMap { e in e.allRelationships(in: model).filter { !$0.isToMany }.map { e.name + "." + $0.name } })
    }

    /// Whether links of `r` are recorded from `entity`'s side.
    static func recordsLinks(_ r: Relationship, of entity: Entity, in model: Model) -> Bool {
        if !r.isToMany { return true }
        guard let name = r.inverse, let inverse = model.entity(named: r.destination)?.relationship(named: name, in: model) else { return true }
        return inverse.isToMany && (entity.name, r.name) <= (r.destination, name)
    }

    static func targets(_ value: Value?) -> [ObjectID] {
        switch value {
        case .object(let ref)?: return (ref.object as? StoredObject).map { [$0.id] } ?? []
        case .array(let items)?: return items.flatMap { targets($0) }
        default: return []
        }
    }

    /// The data written into `store` (empty, or cleared by `clear`); the
    /// objects' IDs there, by their IDs here.
    @discardableResult
    func write(into store: SQLStore) throws -> [ObjectID: ObjectID] {
        var ids: [ObjectID: ObjectID] = [:]
        for o in ordered {
            ids[o.id] = try store.insert(o.id.entity, Dictionary(uniqueKeysWithValues: o.values.map { ($0.name, $0.value) }))
        }
        for l in links {
            guard let s = ids[l.source], let t = ids[l.target] else { continue }
            try store.link(s, l.relationship, t)
        }
        return ids
    }

    /// Removes every row of `store`'s tables (not Quarry's own), so that one
    /// store per engine serves every candidate (a PostgreSQL schema takes
    /// seconds to make).
    static func clear(_ store: SQLStore) throws {
        // The store keeps the objects it has fetched (its registry): rows
        // rewritten under the same keys would be read back as they were.
        store.forgetObjects()
        let tables = try store.database.tableNames().filter { !$0.hasPrefix("_quarry") }
        guard !tables.isEmpty else { return }
        if store.database.dialect == .postgres {
            _ = try store.database.run("TRUNCATE " + tables.map(SQLIdentifier.quoted).joined(separator: ", ") + " RESTART IDENTITY", [])
        } else {
            // One transaction: the foreign keys are deferred, checked once
            // every table is empty.
            try store.database.inTransaction {
                for t in tables { _ = try store.database.run("DELETE FROM " + SQLIdentifier.quoted(t), []) }
            }
        }
    }

    /// Without the objects at `drop` (and their links).
    func removingObjects(_ drop: Set<ObjectID>) -> FuzzDataSet {
        FuzzDataSet(objects: objects.filter { !drop.contains($0.id) },
                    links: links.filter { !drop.contains($0.source) && !drop.contains($0.target) }, toOne: toOne)
    }

    /// The statements that rebuild it in an empty store of the same model,
    /// given the objects' IDs once written into one (`write(into:)`): INSERTs
    /// in order, which give the same keys there, a to-one by its
    /// destination's ID; links a statement cannot make are comments.
    func script(ids: [ObjectID: ObjectID]) -> String {
        func id(_ o: ObjectID) -> String { (ids[o] ?? o).description }
        var lines: [String] = []
        for o in ordered {
            var fields = o.values.filter { !$0.value.isNull }.map { "\($0.name): \(Printer.format($0.value))" }
            for l in links where l.source == o.id && isToOne(l) { fields.append("\(l.relationship): '\(id(l.target))'") }
            lines.append("INSERT \(o.id.entity) {\(fields.joined(separator: ", "))}")
        }
        for l in links where !isToOne(l) { lines.append("-- link \(id(l.source)).\(l.relationship) → \(id(l.target))") }
        return lines.joined(separator: "\n")
    }

    /// The objects, each after the destinations of its to-ones where the
    /// links allow (a cycle keeps the rest in their order): the order of
    /// `write(into:)` and of the script's INSERTs, so both give the same keys.
    var ordered: [Object] {
        var placed = Set<ObjectID>(), out: [Object] = [], rest = objects
        while !rest.isEmpty {
            let ready = rest.filter { o in !links.contains { $0.source == o.id && isToOne($0) && $0.target != o.id && !placed.contains($0.target) } }
            let next = ready.isEmpty ? [rest[0]] : ready
            for o in next { placed.insert(o.id); out.append(o) }
            let ids = Set(next.map(\.id))
            rest.removeAll { ids.contains($0.id) }
        }
        return out
    }

    /// The to-ones of the model, as "Entity.relationship".
    var toOne: Set<String> = []

    func isToOne(_ l: Link) -> Bool { toOne.contains(l.source.entity + "." + l.relationship) }

    var description: String { "\(objects.count) objects, \(links.count) links" }
}

extension EngineFuzzer {
    /// `data` made as small as it can be while the engines in `stores`
    /// (cleared and refilled for each candidate) still disagree on `format`.
    /// `disagrees` decides a candidate; by default, any pair of engines.
    static func shrinkData(_ data: FuzzDataSet, format: String, entity: String, stores: [(String, SQLStore)],
                           disagrees: (([(String, SQLStore)]) -> Bool)? = nil) -> FuzzDataSet {
        let disagrees = disagrees ?? { disagreement(format, stores: $0, entity: entity) != nil }
        func holds(_ candidate: FuzzDataSet) -> Bool {
            do {
                for (_, store) in stores {
                    try FuzzDataSet.clear(store)
                    try store.database.inTransaction { _ = try candidate.write(into: store) }
                }
            } catch {
                return false   // not storable (a required value set to nil): not a candidate
            }
            return disagrees(stores)
        }
        var current = data
        // Objects: chunks of halving size, greedily.
        var size = max(1, current.objects.count / 2)
        while size >= 1 {
            var start = 0
            while start < current.objects.count {
                let chunk = Set(current.objects[start..<min(start + size, current.objects.count)].map(\.id))
                let candidate = current.removingObjects(chunk)
                if holds(candidate) { current = candidate } else { start += size }
            }
            if size == 1 { break }
            size /= 2
        }
        // Links, one at a time.
        var i = 0
        while i < current.links.count {
            var candidate = current
            candidate.links.remove(at: i)
            if holds(candidate) { current = candidate } else { i += 1 }
        }
        // Attribute values, to nil.
        for o in current.objects.indices {
            for v in current.objects[o].values.indices where !current.objects[o].values[v].value.isNull {
                var candidate = current
                candidate.objects[o].values[v].value = .null
                if holds(candidate) { current = candidate }
            }
        }
        // Leave the stores holding the result, for the report.
        _ = holds(current)
        return current
    }

    /// The report of a minimal case: the seed, the predicate, the data as a
    /// script (also written next to the store) and the commands that show
    /// the engines' answers on a SQLite store holding just that data.
    static func report(seed: UInt64, tag: String, format: String, entity: String, data: FuzzDataSet, sqlite: SQLStore?) -> String {
        let base = NSTemporaryDirectory() + "quarry-fuzz-\(seed)-\(tag)-min"
        var ids: [ObjectID: ObjectID] = [:]
        if let sqlite {
            try? FuzzDataSet.clear(sqlite)
            ids = (try? data.write(into: sqlite)) ?? [:]
        }
        let script = data.script(ids: ids)
        try? script.write(toFile: base + ".qry", atomically: true, encoding: .utf8)
        var out = "minimal data (\(data)), seed \(seed), script \(base).qry:\n"
            + script.split(separator: "\n").map { "        " + $0 }.joined(separator: "\n")
        if let sqlite {
            unlink(base + ".sqlite")
            if (try? sqlite.connection.execute("VACUUM INTO '\(base).sqlite'")) != nil {
                let statement = "FETCH \(entity) WHERE \(format)".replacingOccurrences(of: "'", with: "'\\''")
                out += "\n    quarry --store \(base).sqlite --engine memory -c '\(statement)'; quarry --store \(base).sqlite --engine sql -c '\(statement)'"
            }
        }
        return out
    }
}

extension EngineFuzzer {
    /// The minimal case of a disagreement found on `source`'s data: the data
    /// shrunk on fresh stores of the engines that disagree (SQLite's alone
    /// when only its two engines do), and the report.
    static func minimalCase(_ d: FuzzDisagreement, entity: String, source: SQLStore, seed: UInt64, tag: String) -> String {
        let engines = Set([d.left, d.right].compactMap { TestEngine(rawValue: String($0.prefix { $0 != " " })) })
        do {
            let data = try FuzzDataSet.read(source)
            let stores = try TestEngine.allCases.filter(engines.contains).map { ($0.rawValue, try $0.emptyStore(model: source.model)) }
            guard !stores.isEmpty else { return "    (no engine to shrink the data on)" }
            // The same disagreement: the same two engines, each failing
            // (with the same code) or answering rows as it first did.
            func kind(_ o: EngineOutcome) -> String { if case .error(let code) = o { return code } else { return "rows" } }
            let small = shrinkData(data, format: d.format, entity: entity, stores: stores) { stores in
                let all = outcomes(d.format, stores: stores, entity: entity)
                guard let l = all.first(where: { $0.0 == d.left })?.1, let r = all.first(where: { $0.0 == d.right })?.1 else { return false }
                return l != r && kind(l) == kind(d.leftOutcome) && kind(r) == kind(d.rightOutcome)
            }
            let sqlite = try stores.first { $0.0 == TestEngine.sqlite.rawValue }?.1 ?? TestEngine.sqlite.emptyStore(model: source.model)
            return "    " + report(seed: seed, tag: tag, format: d.format, entity: entity, data: small, sqlite: sqlite)
        } catch {
            return "    (the data could not be shrunk: \(error))"
        }
    }
}
