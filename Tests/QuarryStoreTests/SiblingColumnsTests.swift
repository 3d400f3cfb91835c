// Sibling sub-entities that declare an attribute (or a to-one) of the same
// name store it in different columns of their shared table (the second one
// prefixed with its entity). An object fetched through the parent entity
// must read its own entity's column, never its sibling's: a row of
// SystemMessage read TextMessage's `text` column (NULL for it), a silent
// wrong answer found while reading Core Data stores whose models do this
// (wire's SystemMessage.text and TextMessage.text). Every way an object's
// values are read is covered — store objects, the context's objects filled
// from rows, faults — on every engine, and the memory engine must agree
// with SQL.
import Foundation
import Testing
@testable import QuarryStore

@Suite("Siblings' same-named keys read their own columns", .serialized)
struct SiblingColumnsTests {
    static let model = """
    entities:
      Owner:
        attributes:
          name: string
      Message:
        abstract: true
        attributes:
          sent: integer32
      SystemMessage:
        parent: Message
        attributes:
          text: string
          level: integer16
        relationships:
          owner: { to: Owner }
      TextMessage:
        parent: Message
        attributes:
          text: string
          level: integer16
        relationships:
          owner: { to: Owner }
    """

    static let stores = EngineStores { engine in
        let store = try engine.emptyStore(model: try ModelReader.read(yaml: model, file: "siblings.yaml"))
        let alice = try store.insert("Owner", ["name": .string("alice")])
        let bob = try store.insert("Owner", ["name": .string("bob")])
        for i in 1...3 {
            _ = try store.insert("SystemMessage", ["sent": .int(Int64(i)), "text": .string("system \(i)"), "level": .int(Int64(i))],
                                 toOne: ["owner": alice])
            _ = try store.insert("TextMessage", ["sent": .int(Int64(10 + i)), "text": .string("text \(i)"), "level": .int(Int64(10 + i))],
                                 toOne: ["owner": bob])
        }
        return store
    }

    /// (entity fetched, predicate, the `text` values expected, sorted). A
    /// predicate on the parent names the parent's keys only (a sibling's
    /// key is unknown there, as in Core Data): what matters is what each
    /// fetched object then reads.
    static let cases: [(String, String, [String])] = [
        ("Message", "TRUEPREDICATE", ["system 1", "system 2", "system 3", "text 1", "text 2", "text 3"]),
        ("Message", "sent > 2", ["system 3", "text 1", "text 2", "text 3"]),
        ("Message", "sent < 3", ["system 1", "system 2"]),
        ("SystemMessage", "text BEGINSWITH 'system'", ["system 1", "system 2", "system 3"]),
        ("TextMessage", "text BEGINSWITH 'text' AND level >= 12", ["text 2", "text 3"]),
        ("SystemMessage", "owner.name == 'alice'", ["system 1", "system 2", "system 3"]),
        ("TextMessage", "owner.name == 'alice'", []),
        ("TextMessage", "level == 12", ["text 2"]),
    ]

    @Test("store objects, both engines", arguments: TestEngine.available, cases)
    func storeObjects(_ engine: TestEngine, _ c: (String, String, [String])) throws {
        let store = try Self.stores.store(engine)
        let request = FetchRequest(entity: c.0, predicate: try Parser.parsePredicate(c.1))
        for mode in [FetchEngine.sql, .memory] {
            store.forgetObjects()
            let objects = try store.fetch(request, engine: mode)
            let texts = objects.compactMap { o -> String? in
                if case .string(let s)? = o.value(forKey: "text") { return s }
                return nil
            }.sorted()
            #expect(texts == c.2, "\(mode) \(c.0) WHERE \(c.1)")
            for o in objects {
                // Each object's level and owner are its own entity's too.
                let level = o.value(forKey: "level")
                let expectTen = o.entity == "TextMessage"
                if case .int(let l)? = level { #expect((l > 10) == expectTen, "\(o.id) level \(l)") } else {
                    Issue.record("\(o.id) has no level: \(String(describing: level))")
                }
            }
        }
    }

    @Test("context objects read from rows and as faults", arguments: TestEngine.available)
    func contextObjects(_ engine: TestEngine) throws {
        let store = try Self.stores.store(engine)
        let context = Context(store: store)
        let all = try context.fetch(FetchRequest(entity: "Message", predicate: nil))
        #expect(all.count == 6)
        for object in all {
            let isSystem = object.objectID.entity == "SystemMessage"
            guard case .string(let text)? = object.value(forKey: "text") else {
                Issue.record("\(object.objectID) has no text"); continue
            }
            #expect(text.hasPrefix(isSystem ? "system" : "text"), "\(object.objectID): \(text)")
            #expect(object.object(forKey: "owner")?.value(forKey: "name") == .string(isSystem ? "alice" : "bob"),
                    "\(object.objectID)'s owner")
        }
        // Faults filled one by one (a fresh context, objects by ID) read the same.
        let faults = Context(store: store)
        for object in all {
            let fault = faults.object(with: object.objectID)
            #expect(fault.value(forKey: "text") == object.value(forKey: "text"), "fault \(object.objectID)")
            #expect(fault.value(forKey: "level") == object.value(forKey: "level"), "fault \(object.objectID)")
        }
    }
}
