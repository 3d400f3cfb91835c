// A Core Data store's migration done in place, where the change allows it:
// the copy (CoreDataMigration+Copy.swift) rewrites every row, which a
// change that only adds, renames or removes columns does not need — adding
// an attribute with a default to a 1M-row store took 2.1× the hand-written
// ALTER TABLE + UPDATE, and a rename 13× one RENAME COLUMN. So when every
// old entity keeps its number and table (nothing removed, nothing
// renumbered) and every many-to-many keeps its join table as it is, the same
// per-column sources the copy would read become statements on the tables
// themselves:
//   a column copied under its own name     nothing;
//   copied under another name               ALTER TABLE … RENAME COLUMN;
//   new (a default, NULL, a new companion)  ADD COLUMN, then one UPDATE for
//                                           the rows of the entities that have it;
//   made required with a default            UPDATE … WHERE it IS NULL;
//   an old column nothing reads any more    DROP COLUMN (after its indexes);
// new tables are created, join tables no relationship uses any more dropped,
// indexes whose name or definition changed dropped and made, Z_PRIMARYKEY
// given the new entities (and a renamed sub-entity's name). The result is
// the copy's, but for the order of columns inside a table (an added column
// comes last), which nothing reads. Anything else — an integer widened to
// floating point (a column's declared type cannot change in place: its
// affinity would turn 3.0 back into 3), renumbered entities, a source a
// column's entities disagree on — takes the copy. Both run in the same one
// transaction, and CoreDataMigrationTests checks on the corpus that the two
// leave the same objects.
import QuarryModel
import QuarrySQL
import QuarrySQLite
import QuarryStore

extension CoreDataMigrationCopy {
    /// The in-place statements (before the metadata), or nil where only the
    /// copy can make the change.
    func inPlaceSteps(_ connection: SQLiteConnection, layout: CoreDataStoreLayout) throws -> [MigrationStep]? {
        let kept = Set(difference.entityMatch.values)
        guard old.entities.allSatisfy({ kept.contains($0.name) }),
              entityCopies.allSatisfy({ $0.oldNumber == $0.newNumber && $0.table.uppercased() == $0.oldTable.uppercased() }),
              joinCopies.allSatisfy({ $0.table.uppercased() == $0.oldTable.uppercased() && $0.columns.allSatisfy { $0.old?.uppercased() == $0.new.uppercased() } })
        else { return nil }
        let hierarchyTables = oldViews.hierarchies.map(\.cdTable)
        let layoutTables = Dictionary(layout.tables.map { ($0.name.uppercased(), $0) }, uniquingKeysWith: { a, _ in a })
        guard hierarchyTables.allSatisfy({ layoutTables[$0.uppercased()] != nil }) else { return nil }

        var renames: [MigrationStep] = [], adds: [MigrationStep] = [], updates: [MigrationStep] = [], dropColumns: [MigrationStep] = []
        var renamedFrom: [String: [String: String]] = [:]   // table → new column (upper-cased) → old name
        for table in hierarchyTables {
            guard let target = layoutTables[table.uppercased()], let existing = schema.table(table)?.columns else { return nil }
            let copies = entityCopies.filter { $0.oldTable.uppercased() == table.uppercased() }
            let fixed: Set<String> = ["Z_PK", "Z_ENT", "Z_OPT"]
            var claimed = fixed   // old columns some new column reads
            var newName: [String: String] = [:]   // old column (upper) → its name after the renames
            var fills: [(column: String, source: CoreDataMigrationCopy.ColumnSource, entities: [Int])] = []
            for column in target.columns where !fixed.contains(column.name.uppercased()) {
                var sources: [CoreDataMigrationCopy.ColumnSource] = []
                var entities: [Int] = []
                for copy in copies {
                    for (c, source) in copy.sources where c == column.name {
                        if !sources.contains(source) { sources.append(source) }
                        entities.append(copy.newNumber)
                    }
                }
                let present = existing[column.name.uppercased()] != nil
                guard sources.count <= 1 else { return nil }
                switch sources.first {
                case nil, .value?, .companion?:
                    // A new column (an old one of that name would keep stale values).
                    guard !present else { return nil }
                    adds.append(MigrationStep("ALTER TABLE main.\(q(table)) ADD COLUMN \(q(column.name)) \(column.type)"))
                    if let source = sources.first { fills.append((column.name, source, entities)) }
                case .column(let c)?, .renumbered(let c)?:
                    guard !claimed.contains(c.uppercased()) else { return nil }
                    claimed.insert(c.uppercased())
                    if c.uppercased() != column.name.uppercased() {
                        guard !present, case .column = sources.first! else { return nil }
                        renames.append(MigrationStep("ALTER TABLE main.\(q(table)) RENAME COLUMN \(q(c)) TO \(q(column.name))"))
                        renamedFrom[table.uppercased(), default: [:]][column.name.uppercased()] = c
                    }
                    newName[c.uppercased()] = column.name
                case .fill(let c, _)?:
                    guard c.uppercased() == column.name.uppercased(), !claimed.contains(c.uppercased()) else { return nil }
                    claimed.insert(c.uppercased())
                    newName[c.uppercased()] = column.name
                    fills.append((column.name, sources[0], entities))
                case .cast?:
                    return nil
                }
            }
            for (column, source, entities) in fills {
                let scope = "\"Z_ENT\" IN (\(entities.sorted().map(String.init).joined(separator: ", ")))"
                switch source {
                case .value(let v?):
                    updates.append(MigrationStep("UPDATE main.\(q(table)) SET \(q(column)) = ? WHERE \(scope)", [v]))
                case .fill(_, let v):
                    updates.append(MigrationStep("UPDATE main.\(q(table)) SET \(q(column)) = ? WHERE \(q(column)) IS NULL AND \(scope)", [v]))
                case .companion(let fk, let n):
                    guard let key = newName[fk.uppercased()] else { return nil }
                    updates.append(MigrationStep("UPDATE main.\(q(table)) SET \(q(column)) = \(n) WHERE \(q(key)) IS NOT NULL AND \(scope)"))
                default:
                    break
                }
            }
            for (upper, actual) in existing.sorted(by: { $0.key < $1.key }) where !claimed.contains(upper) {
                dropColumns.append(MigrationStep("ALTER TABLE main.\(q(table)) DROP COLUMN \(q(actual))"))
            }
        }
        if !dropColumns.isEmpty {
            // DROP COLUMN: SQLite 3.35 and later.
            guard case .string(let version)? = try connection.query("SELECT sqlite_version()").first?.first,
                  version.split(separator: ".").compactMap({ Int($0) }).lexicographicallyPrecedes([3, 35, 0]) == false else { return nil }
        }

        // Tables: the layout's that are not there yet; join tables no relationship uses.
        let usedJoins = Set(joinCopies.map { $0.oldTable.uppercased() })
        let oldJoins = oldViews.joins.map(\.cdTable).filter { !usedJoins.contains($0.uppercased()) }
        let existingTables = Set(schema.tables.keys)
        let dropping = Set(oldJoins.map { $0.uppercased() })
        let createStatements = zip(layout.tables, layout.tableStatements)
            .filter { !existingTables.contains($0.0.name.uppercased()) || dropping.contains($0.0.name.uppercased()) }.map(\.1)

        // Indexes: kept where name and definition are the layout's (a column
        // renamed in place is renamed inside its indexes by SQLite, so the
        // layout's definition is compared under the column's old name).
        var wanted: [String: String] = [:]
        for index in layout.indexes {
            let old = renamedFrom[index.table.uppercased()] ?? [:]
            let elements = index.elements.map { e -> String in
                let column = e.prefix { !$0.isWhitespace }
                return (old[column.uppercased()].map { q($0) } ?? String(column)) + e.dropFirst(column.count)
            }
            wanted[index.name.uppercased()] = "CREATE \(index.isUnique ? "UNIQUE " : "")INDEX \(index.name) ON \(index.table) (\(elements.joined(separator: ", ")))"
        }
        var indexDrops: [MigrationStep] = [], keptIndexes: Set<String> = []
        let rebuilt = Set(hierarchyTables.map { $0.uppercased() } + oldViews.joins.map { $0.cdTable.uppercased() })
        for row in try connection.query("SELECT name, tbl_name, sql FROM main.sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY name") {
            guard case .string(let name) = row[0], case .string(let table) = row[1], case .string(let sql) = row[2],
                  rebuilt.contains(table.uppercased()) else { continue }
            if let statement = wanted[name.uppercased()],
               Self.normalized(statement) == Self.normalized(sql) {
                keptIndexes.insert(name.uppercased())
            } else {
                indexDrops.append(MigrationStep("DROP INDEX main.\(q(name))"))
            }
        }
        let indexCreates = layout.indexes.enumerated().filter { !keptIndexes.contains($0.element.name.uppercased()) }
            .map { MigrationStep(layout.indexStatements[$0.offset]) }

        // Z_PRIMARYKEY: new entities (numbers after the kept ones'), renamed sub-entities.
        var keys: [MigrationStep] = []
        let numbers = Set(entityCopies.map(\.newNumber))
        for e in layout.entities where !numbers.contains(e.number) {
            keys.append(MigrationStep("INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, ?, 0)",
                                      [.int(Int64(e.number)), .string(e.name), .int(Int64(e.parent))]))
        }
        for copy in entityCopies where schema.entities[copy.entity]?.number != copy.newNumber {
            keys.append(MigrationStep("UPDATE Z_PRIMARYKEY SET Z_NAME = ? WHERE Z_ENT = ?", [.string(copy.entity), .int(Int64(copy.newNumber))]))
        }
        return indexDrops + renames + adds + updates + dropColumns
            + oldJoins.map { MigrationStep("DROP TABLE main.\(q($0))") } + createStatements.map { MigrationStep($0) }
            + keys + indexCreates
    }

    /// An index's SQL compared without case or spacing.
    private static func normalized(_ sql: String) -> String {
        String(sql.uppercased().filter { !$0.isWhitespace && $0 != "\"" })
    }
}
