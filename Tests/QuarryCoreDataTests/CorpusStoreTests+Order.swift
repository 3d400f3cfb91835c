// The order of ordered to-manys kept through a to-one inverse, in the
// corpus's real stores: Core Data writes it into `Z_FOK_<INVERSE>` beside
// the inverse's foreign key, and every object's list read through Quarry
// must come in the order of the hand-written query on the Z-table. Wire's
// stores have such relationships (`Conversation.messages` ordered by
// `ZMESSAGE.Z_FOK_VISIBLEINCONVERSATION`), several of whose lists are not
// in key order — the case a reader that ignores the column gets wrong.
import QuarryCoreData
import QuarryModel
import QuarrySQLite
import QuarryStore
import Testing

extension CorpusStoreTests {
    /// Checks every ordered to-many stored through a to-one inverse whose
    /// `Z_FOK_` column the store has; returns how many relationships were
    /// checked and how many lists were not in key order.
    func checkOrder(_ opened: CoreDataOpening, oracle: Oracle, label: String) throws -> (relationships: Int, reordered: Int) {
        let store = opened.store, model = store.model
        var relationships = 0, reordered = 0
        for entity in model.entities {
            for r in entity.relationships where !r.isTransient && r.isToMany && r.isOrdered {
                guard let inverse = r.inverse, let destination = model.entity(named: r.destination),
                      let back = destination.relationship(named: inverse, in: model), !back.isToMany,
                      let root = oracle.rootName(of: opened.storedEntityNames[r.destination] ?? r.destination) else { continue }
                let table = "Z" + root.uppercased(), key = "Z" + inverse.uppercased(), order = "Z_FOK_" + inverse.uppercased()
                let present = try oracle.connection.scalar("SELECT COUNT(*) FROM pragma_table_info(?) WHERE upper(name) IN (?, ?)",
                                                           [.string(table), .string(key), .string(order)])
                guard present == .int(2) else { continue }
                relationships += 1
                for o in try store.fetch(FetchRequest(entity: entity.name)) {
                    let got = Self.ids(o.value(forKey: r.name)).map(\.primaryKey)
                    let expected = try oracle.connection.query(
                        "SELECT Z_PK FROM \"\(table)\" WHERE \"\(key)\" = ? ORDER BY \"\(order)\", Z_PK", [.int(o.id.primaryKey)]
                    ).compactMap { row -> Int64? in if case .int(let k) = row[0] { k } else { nil } }
                    #expect(got == expected, "\(label): \(o.id).\(r.name) in \(got), the store's \(order) order is \(expected)")
                    if expected != expected.sorted() { reordered += 1 }
                }
            }
        }
        return (relationships, reordered)
    }
}
