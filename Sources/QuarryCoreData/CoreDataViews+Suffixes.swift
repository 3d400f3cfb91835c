// Where entities of one hierarchy declare properties of the same name,
// Core Data's columns get numeric suffixes (`ZTITLE`, `ZTITLE1`), and which
// entity has which suffix is a hypothesis (entity-number order) that no
// corpus store could confirm: the colliding columns there hold no values.
// A wrong guess would be a silent wrong answer — one sibling reading the
// other's column — so the rows decide: a suffixed column that holds a value
// in a row of an entity it does not belong to means the columns are not
// where the hypothesis put them, and the store is refused. (An empty column
// proves nothing either way, and an empty column cannot mislead.)
import QuarrySQL
import QuarrySQLite

/// A column found by the suffix hypothesis and the entities it belongs to.
struct SuffixedColumn {
    let table: String
    let column: String
    let entity: String
    let property: String
    /// `Z_ENT` of the declaring entity and its sub-entities.
    let entityNumbers: [Int]
}

extension CoreDataViews {
    /// Refuses the mapping when a suffixed column holds a value in a row of
    /// another entity.
    func checkSuffixes(_ connection: SQLiteConnection) throws {
        var problems: [String] = []
        for c in suffixedColumns {
            let owners = c.entityNumbers.map(String.init).joined(separator: ", ")
            let sql = "SELECT \"Z_ENT\" FROM main.\(SQLIdentifier.quoted(c.table)) WHERE \(SQLIdentifier.quoted(c.column)) IS NOT NULL"
                + " AND \"Z_ENT\" NOT IN (\(owners)) LIMIT 1"
            guard let row = try connection.query(sql).first else { continue }
            var other = "?"
            if case .int(let n)? = row.first { other = String(n) }
            problems.append("\(c.table).\(c.column) should hold \(c.entity).\(c.property) but has a value in a row of entity number \(other)")
        }
        guard problems.isEmpty else {
            throw CoreDataError(.modelMismatch,
                                "the store's columns for same-named properties are not where Core Data's naming puts them: "
                                    + problems.joined(separator: "; "),
                                hint: "reading it could mix up the entities' values, so it is refused; please report the store's layout")
        }
    }
}
