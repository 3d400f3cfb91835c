// The tables, columns and indexes Core Data creates for a model in a new
// SQLite store, computed from a Quarry `Model` — the write-side twin of
// CoreDataViews.swift, which finds the same names in an existing store.
// Every rule below was read off the stores of ../shared/corpus (checked by
// Tests/QuarryCoreDataTests/CoreDataStoreCreationTests.swift); where Core
// Data changed its mind between framework versions the rule takes the
// version (`frameworkVersion`), and only versions seen in the corpus are
// described:
// - entity numbers: root entities by name, each followed at once by its
//   sub-entities by name, recursively (COREDATA-STORES.md §5);
// - one table `Z<ROOT>` per hierarchy: Z_PK, Z_ENT, Z_OPT, then the stored
//   properties of every entity of the hierarchy, grouped by storage class
//   (integers, booleans and foreign keys; dates and reals; strings;
//   transformables; binaries), inside a group entity by entity in number
//   order, inside an entity attributes before to-ones, each by name. A
//   to-one whose destination has sub-entities gets its `Z<n>_<REL>`
//   entity-number column right after it. The ordering columns `Z_FOK_<REL>`
//   of ordered one-to-manys close the integer group, by entity and name —
//   except that wire-ios puts Z_FOK_VISIBLEINCONVERSATION before
//   Z_FOK_HIDDENINCONVERSATION: the order of two such columns of one entity
//   is not known (the test counts it apart);
// - same-named properties of one hierarchy get suffixes 1, 2, … in entity
//   order (ZTEXT, ZTEXT1);
// - a many-to-many gets `Z_<n><REL>` named after the side on the
//   lower-numbered entity, columns `Z_<entity number><name of the
//   relationship pointing at it>`, the lower-numbered side first; for a
//   many-to-many of an entity with itself the side is a guess (right for
//   97 of the 102 such tables in the corpus), which the creation warns of;
// - equal join-table column names (two relationships named alike pointing
//   at one entity) get suffixes 1, 2, … (Z_23USERS1), in entity-name order;
// - indexes: every to-one's column, Z_ENT of a hierarchy, a join table's
//   second column; fetch indexes and uniqueness constraints as each
//   framework version names them (CoreDataStoreLayout+Indexes.swift).
// Not in the corpus, so guesses: where Decimal, UUID and URI columns sort
// (with the reals, the binaries and the strings), and the order of names
// that differ only in case (UTF-8 byte order here).
import QuarryModel

struct CoreDataStoreLayout {
    struct Column: Equatable {
        let name: String
        let type: String
    }
    struct Table {
        let name: String
        var columns: [Column]
        /// Table constraints (uniqueness, before framework version 1044).
        var constraints: [String] = []
        /// `PRIMARY KEY (…)` of a join table.
        var primaryKey: [String] = []
    }
    struct Index {
        let name: String
        let table: String
        /// Each element as written inside the parentheses.
        let elements: [String]
        let isUnique: Bool
    }

    /// Entity name → (Z_ENT, parent's Z_ENT or 0), in number order.
    var entities: [(name: String, number: Int, parent: Int)] = []
    var tables: [Table] = []
    var indexes: [Index] = []
    /// "Entity.property" → its column (attributes and to-ones), for indexes
    /// and migration (CoreDataMigration+Copy.swift).
    var columnOf: [String: String] = [:]
    /// "Entity.relationship" → a to-one's `Z<n>_<REL>` entity-number column.
    var companionOf: [String: String] = [:]
    /// "Entity.relationship" of an ordered one-to-many → its `Z_FOK_`
    /// column on the destination's table.
    var orderColumnOf: [String: (table: String, column: String)] = [:]
    /// Many-to-many join tables and what each column holds.
    var joins: [Join] = []

    /// A join table: `firstColumn` holds `first`'s keys, `secondColumn` the
    /// keys of `relationship`'s destination; the `Z_FOK_` columns, where
    /// present, order each side's list.
    struct Join {
        let table: String
        let first: String, relationship: String, firstColumn: String, firstOrder: String?
        let second: String, inverse: String, secondColumn: String, secondOrder: String?
    }
    /// What the caller should know: names that are a best guess.
    var warnings: [String] = []

    /// Numbers entities as Core Data does: roots by name, each followed by
    /// its sub-entities by name, recursively.
    static func entityNumbers(_ model: Model) -> [String: Int] {
        var numbers: [String: Int] = [:]
        func visit(_ names: [String]) {
            for name in names.sorted(by: utf8Order) {
                numbers[name] = numbers.count + 1
                visit(model.entities.filter { $0.parent == name }.map(\.name))
            }
        }
        visit(model.entities.filter { $0.parent == nil }.map(\.name))
        return numbers
    }

    /// The declared SQL type and storage group of an attribute type.
    static func storage(_ type: AttributeType) -> (type: String, group: Int)? {
        switch type {
        case .integer16, .integer32, .integer64, .boolean: return ("INTEGER", 0)
        case .date: return ("TIMESTAMP", 1)
        case .double, .float: return ("FLOAT", 1)
        // Not in the corpus: DECIMAL with the reals, URI with the strings,
        // UUID with the binaries (unverified guesses).
        case .decimal: return ("DECIMAL", 1)
        case .string: return ("VARCHAR", 2)
        case .uri: return ("VARCHAR", 2)
        case .transformable: return ("BLOB", 3)
        case .binary, .uuid: return ("BLOB", 4)
        case .undefined, .objectID: return nil
        }
    }

    /// `namedAfter`: "Entity.relationship" of self-referential many-to-manys
    /// whose join table an existing store names after that side (a
    /// migration keeps the store's choice, CoreDataMigration.swift).
    init(model: Model, frameworkVersion: Int, namedAfter: Set<String> = []) throws(CoreDataError) {
        var problems: [String] = []
        let numbers = Self.entityNumbers(model)
        guard numbers.count == model.entities.count else {
            throw CoreDataError(.unreadableModel, "the model's entity hierarchy has a cycle or a missing parent: no Core Data store can be made of it")
        }
        func number(_ name: String) -> Int { numbers[name] ?? 0 }
        let ordered = model.entities.sorted { number($0.name) < number($1.name) }
        entities = ordered.map { ($0.name, number($0.name), $0.parent.map(number) ?? 0) }
        func root(_ e: Entity) -> Entity { e.ancestors(in: model).last ?? e }
        func hasSubentities(_ name: String) -> Bool { model.entities.contains { $0.parent == name } }

        for rootEntity in ordered where rootEntity.parent == nil {
            let family = ordered.filter { root($0).name == rootEntity.name }
            let tableName = "Z" + rootEntity.name.uppercased()
            // Suffixes: declarers of one upper-cased name, in entity order.
            var declared: [String: Int] = [:]
            func columnName(_ property: String) -> String {
                let upper = property.uppercased()
                let n = declared[upper, default: 0]
                declared[upper] = n + 1
                return "Z" + upper + (n == 0 ? "" : String(n))
            }
            // (group, entity number, rank in entity, sort name, columns)
            var pending: [(group: Int, entity: Int, rank: Int, name: String, columns: [Column])] = []
            for member in family {
                for a in member.attributes where !a.isTransient {
                    guard let s = Self.storage(a.type) else {
                        problems.append("\(member.name).\(a.name) has type \(a.type.rawValue), which Core Data does not store in a column")
                        continue
                    }
                    let c = columnName(a.name)
                    columnOf[member.name + "." + a.name] = c
                    pending.append((s.group, number(member.name), 0, a.name, [Column(name: c, type: s.type)]))
                }
                for r in member.relationships where !r.isTransient && !r.isToMany {
                    let c = columnName(r.name)
                    columnOf[member.name + "." + r.name] = c
                    var columns = [Column(name: c, type: "INTEGER")]
                    if hasSubentities(r.destination) {
                        let companion = "Z\(number(r.destination))_" + r.name.uppercased()
                        companionOf[member.name + "." + r.name] = companion
                        columns.append(Column(name: companion, type: "INTEGER"))
                    }
                    pending.append((0, number(member.name), 1, r.name, columns))
                }
            }
            // Ordering columns of ordered one-to-manys whose inverse (a
            // to-one) is declared by an entity of this hierarchy.
            for e in model.entities {
                for r in e.relationships where !r.isTransient && r.isToMany && r.isOrdered {
                    guard let inverseName = r.inverse, let d = model.entity(named: r.destination),
                          let owner = ([d] + d.ancestors(in: model)).first(where: { $0.relationships.contains { $0.name == inverseName } }),
                          let inverse = owner.relationships.first(where: { $0.name == inverseName }), !inverse.isToMany,
                          family.contains(where: { $0.name == owner.name }) else { continue }
                    let name = "Z_FOK_" + inverseName.uppercased()
                    orderColumnOf[e.name + "." + r.name] = (tableName, name)
                    guard !pending.contains(where: { $0.columns.contains { $0.name == name } }) else { continue }
                    // After the whole integer group (every entity's integers
                    // and foreign keys), by entity then name.
                    pending.append((0, 1_000_000 + number(owner.name), 2, inverseName, [Column(name: name, type: "INTEGER")]))
                }
            }
            pending.sort { a, b in
                if a.group != b.group { return a.group < b.group }
                if a.entity != b.entity { return a.entity < b.entity }
                if a.rank != b.rank { return a.rank < b.rank }
                return utf8Order(a.name, b.name)
            }
            let fixed = [Column(name: "Z_PK", type: "INTEGER PRIMARY KEY"), Column(name: "Z_ENT", type: "INTEGER"), Column(name: "Z_OPT", type: "INTEGER")]
            tables.append(Table(name: tableName, columns: fixed + pending.flatMap(\.columns)))
            for p in pending where p.rank == 1 {
                let c = p.columns[0].name
                indexes.append(Index(name: "\(tableName)_\(c)_INDEX", table: tableName, elements: [c], isUnique: false))
            }
            if family.count > 1 {
                indexes.append(Index(name: "\(tableName)_Z_ENT_INDEX", table: tableName, elements: ["Z_ENT"], isUnique: false))
            }
        }
        addJoinTables(model: model, numbers: numbers, namedAfter: namedAfter, problems: &problems)
        addModelIndexes(model: model, frameworkVersion: frameworkVersion, problems: &problems)
        if !problems.isEmpty {
            let shown = problems.prefix(8).joined(separator: "; ") + (problems.count > 8 ? "; and \(problems.count - 8) more" : "")
            throw CoreDataError(.unreadableModel, "no Core Data store can be made of this model: \(shown)")
        }
    }

    /// Many-to-many join tables.
    private mutating func addJoinTables(model: Model, numbers: [String: Int], namedAfter: Set<String>, problems: inout [String]) {
        func number(_ name: String) -> Int { numbers[name] ?? 0 }
        var done: Set<String> = []
        var usedColumns: Set<String> = []
        // By entity name, then relationship name: the order in which equal
        // column names get their suffixes (wire-ios: Reaction.users holds
        // Z_23USERS, SystemMessage.users — the lower-numbered entity, a
        // sub-entity — Z_23USERS1; entity-number order would swap them).
        for entity in model.entities.sorted(by: { utf8Order($0.name, $1.name) }) {
            for r in entity.relationships.sorted(by: { utf8Order($0.name, $1.name) }) where !r.isTransient && r.isToMany {
                guard let inverseName = r.inverse else {
                    problems.append("\(entity.name).\(r.name) is a to-many without an inverse: how Core Data names its join table is not known")
                    continue
                }
                guard let d = model.entity(named: r.destination),
                      let inverseOwner = ([d] + d.ancestors(in: model)).first(where: { $0.relationships.contains { $0.name == inverseName } }),
                      let inverse = inverseOwner.relationships.first(where: { $0.name == inverseName }) else {
                    problems.append("\(entity.name).\(r.name): its inverse \(r.destination).\(inverseName) is not in the model")
                    continue
                }
                guard inverse.isToMany else { continue }   // one-to-many: a foreign key on the other side
                let key = [entity.name + "." + r.name, inverseOwner.name + "." + inverseName].sorted().joined(separator: "|")
                guard done.insert(key).inserted else { continue }
                // This side (A.r) and the other (B.inverse); A's column holds
                // A's keys and is named after the relationship pointing at A.
                var a = (entity: entity.name, rel: r, other: inverse, otherOwner: inverseOwner.name)
                let na = number(entity.name), nb = number(inverseOwner.name)
                // The table is named after the relationship on the
                // lower-numbered entity; for a self-relationship (equal
                // numbers) the columns go by name and the table after the
                // second column's relationship (wire's Z_24IGNOREDCLIENTS;
                // its Z_24TRUSTEDBYCLIENTS goes the other way: unpredictable).
                let known = namedAfter.contains(entity.name + "." + r.name) || namedAfter.contains(inverseOwner.name + "." + inverseName)
                if nb < na || (nb == na && (known ? namedAfter.contains(inverseOwner.name + "." + inverseName)
                                                  : utf8Order(r.name.uppercased(), inverse.name.uppercased()))) {
                    a = (inverseOwner.name, inverse, r, entity.name)
                }
                // Now a.rel is the relationship the table is named after:
                // first column holds a.entity's keys (named after a.other),
                // the second the destination's keys (named after a.rel).
                let first = number(a.entity), second = number(a.otherOwner)
                func unique(_ name: String) -> String {
                    var n = name, i = 0
                    while usedColumns.contains(n) { i += 1; n = name + String(i) }
                    usedColumns.insert(n)
                    return n
                }
                let c1 = unique("Z_\(first)" + a.other.name.uppercased())
                let c2 = unique("Z_\(second)" + a.rel.name.uppercased())
                let tableName = "Z_\(first)" + a.rel.name.uppercased()
                var columns = [Column(name: c1, type: "INTEGER"), Column(name: c2, type: "INTEGER")]
                // Order columns: Z_FOK_<column> where the relationship
                // whose destination keys that column holds is ordered.
                let firstOrder = a.other.isOrdered ? "Z_FOK_" + c1.dropFirst(2) : nil
                let secondOrder = a.rel.isOrdered ? "Z_FOK_" + c2.dropFirst(2) : nil
                columns += [firstOrder, secondOrder].compactMap { $0.map { Column(name: $0, type: "INTEGER") } }
                joins.append(Join(table: tableName, first: a.entity, relationship: a.rel.name, firstColumn: c1, firstOrder: firstOrder,
                                  second: a.otherOwner, inverse: a.other.name, secondColumn: c2, secondOrder: secondOrder))
                if na == nb && !known {
                    warnings.append("\(a.entity).\(a.rel.name) ↔ \(a.other.name) is a many-to-many of an entity with itself: its join table is "
                        + "\(tableName), but Core Data's choice between Z_\(first)\(a.rel.name.uppercased()) and Z_\(first)\(a.other.name.uppercased()) "
                        + "is not predictable from the names (the corpus has both); check the store with the app before relying on that relationship")
                }
                tables.append(Table(name: tableName, columns: columns, primaryKey: [c1, c2]))
                indexes.append(Index(name: "\(tableName)_\(c2)_INDEX", table: tableName, elements: [c2, c1], isUnique: false))
            }
        }
    }

    /// The CREATE statements, tables first.
    var statements: [String] { tableStatements + indexStatements }

    var tableStatements: [String] {
        var out: [String] = []
        for t in tables {
            var parts = t.columns.map { "\($0.name) \($0.type)" }
            if !t.primaryKey.isEmpty { parts.append("PRIMARY KEY (\(t.primaryKey.joined(separator: ", ")))") }
            parts += t.constraints
            out.append("CREATE TABLE \(t.name) ( \(parts.joined(separator: ", ")) )")
        }
        return out
    }

    var indexStatements: [String] {
        var out: [String] = []
        for i in indexes {
            out.append("CREATE \(i.isUnique ? "UNIQUE " : "")INDEX \(i.name) ON \(i.table) (\(i.elements.joined(separator: ", ")))")
        }
        return out
    }
}

/// Names compared by their UTF-8 bytes (Core Data's order for ASCII names).
func utf8Order(_ a: String, _ b: String) -> Bool { a.utf8.lexicographicallyPrecedes(b.utf8) }
