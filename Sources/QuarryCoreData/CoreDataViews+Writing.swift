// Writing a Core Data store through the same TEMP views that read it: each
// view gets TEMP `INSTEAD OF` triggers that turn the engine's INSERT, UPDATE
// and DELETE of Quarry's layout into writes of the Z-tables that keep Core
// Data's invariants, so the context's save and the batch requests run
// unchanged and the app's Core Data opens the store afterwards:
// - a new row's `Z_PK` comes from `Z_PRIMARYKEY.Z_MAX` of the hierarchy's
//   root entity, moved in the same statement (in every corpus store with
//   inheritance the sub-entities' rows keep `Z_MAX` 0 and only the root's
//   advances); an explicit key (an undone delete) moves `Z_MAX` past it;
// - `Z_ENT` is the row's entity number, `Z_OPT` is Quarry's row version
//   (1 on insert, one more per save or batch update that writes the row;
//   a row changed without a new version gets one more at COMMIT:
//   CoreDataViews+Touched.swift);
// - only the columns a statement changed are written (a value read through
//   a conversion, such as an external file, is never written back);
// - binary data that allows external storage is written inline behind the
//   0x01 tag byte, never to a file; a to-one writes its `Z<n>_<REL>`
//   companion with the target's `Z_ENT`; join rows and `Z_FOK_` ordering
//   columns are written where the relationship keeps them, with the values
//   they are given (the store writes Core Data's spacing, 2048, 3072, …:
//   StoreMapping+Ordered.swift); a join row inserted without one (linked
//   from the relationship's other side) joins the end of its owner's list,
//   as Core Data's inverse maintenance appends it; a NULL written over an
//   ordering value is refused (it is how the store's `placeLast` says the
//   next value would pass Int64);
// - what cannot be written faithfully (a value for an app's own transformer, an order
//   column the store lacks) raises, which fails the statement and rolls
//   back its transaction: nothing half-written.
// Every trigger ends by counting the view row in a TEMP table, since SQLite
// counts no change for a statement on a view (CoreDataDatabase.swift reads
// the count and the last key handed out). Everything is TEMP: nothing of
// Quarry's is created in the file.
import QuarrySQL

extension CoreDataViews {
    /// The TEMP table the triggers count their rows and last key in.
    static let writesTable = "quarry_coredata_writes"

    /// The statements that make the views writable (after `statements`).
    func writingStatements() -> [String] {
        let counter = SQLIdentifier.quoted(Self.writesTable)
        var out = ["CREATE TEMP TABLE \(counter) (\"rows\" INTEGER NOT NULL, \"last_key\" INTEGER)",
                   "INSERT INTO temp.\(counter) VALUES (0, NULL)",
                   Self.touchedTableStatement()]   // CoreDataViews+Touched.swift
        for h in hierarchies { out += hierarchyTriggers(h) }
        for j in joins { out += joinTriggers(j) }
        return out
    }

    private func hierarchyTriggers(_ h: HierarchyView) -> [String] {
        let view = SQLIdentifier.quoted(h.name), table = SQLIdentifier.quoted(h.cdTable)
        let counter = SQLIdentifier.quoted(Self.writesTable)
        let pk = StoreMapping.quotedPrimaryKey, version = SQLIdentifier.quoted(StoreMapping.versionColumn)
        let entityNumber = "CASE NEW.\(StoreMapping.quotedEntityColumn) " + h.members.map { "WHEN \(sqlString($0.name)) THEN \($0.number)" }.joined(separator: " ") + " END"
        let key = "coalesce(NEW.\(pk), (SELECT \"Z_MAX\" FROM \"Z_PRIMARYKEY\" WHERE \"Z_ENT\" = \(h.rootNumber)))"
        func refuse(_ reason: String, when condition: String) -> String {
            "SELECT RAISE(ABORT, \(sqlString("Core Data store: " + reason + "; nothing was written"))) WHERE \(condition);"
        }
        func encoded(_ c: Column) -> String {
            let value = "NEW.\(SQLIdentifier.quoted(c.name))"
            // `||` copies a blob's bytes as they are (the store is UTF-8); the cast makes it a blob again.
            return c.tagged ? "CASE WHEN \(value) IS NULL THEN NULL ELSE CAST(x'01' || \(value) AS BLOB) END" : value
        }
        func companionValue(_ c: Column) -> String? {
            guard c.companion != nil, let destination = c.destinationView,
                  let target = hierarchies.first(where: { $0.name == destination }) else { return nil }
            return "(SELECT d.\"Z_ENT\" FROM \(SQLIdentifier.quoted(target.cdTable)) d WHERE d.\"Z_PK\" = NEW.\(SQLIdentifier.quoted(c.name)))"
        }

        // INSERT: key from the root's Z_MAX, moved first.
        var insertRefusals = "SELECT RAISE(ABORT, 'Core Data store: no such entity in this hierarchy; nothing was written') WHERE (\(entityNumber)) IS NULL;"
        var columns = ["\"Z_PK\"", "\"Z_ENT\"", "\"Z_OPT\""]
        var values = [key, entityNumber, "coalesce(NEW.\(version), 1)"]
        for c in h.columns {
            if let reason = c.unwritable {
                insertRefusals += refuse(reason, when: "NEW.\(SQLIdentifier.quoted(c.name)) IS NOT NULL")
                continue
            }
            columns.append(SQLIdentifier.quoted(c.cdColumn))
            values.append(encoded(c))
            if let companion = c.companion, let value = companionValue(c) {
                columns.append(SQLIdentifier.quoted(companion))
                values.append(value)
            }
        }
        for o in h.orderColumns {
            // NULL unless the INSERT names it (a save writes positions after
            // the rows): Core Data keeps NULL outside the relationship too.
            guard let cd = o.cdColumn else { continue }
            columns.append(SQLIdentifier.quoted(cd))
            values.append("NEW.\(SQLIdentifier.quoted(o.name))")
        }
        let insert = "CREATE TEMP TRIGGER \(SQLIdentifier.quoted("quarry_cd_insert_" + h.name)) INSTEAD OF INSERT ON \(view) BEGIN "
            + insertRefusals
            + "UPDATE \"Z_PRIMARYKEY\" SET \"Z_MAX\" = max(\"Z_MAX\", coalesce(NEW.\(pk), \"Z_MAX\" + 1)) WHERE \"Z_ENT\" = \(h.rootNumber);"
            + "INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES (\(values.joined(separator: ", ")));"
            + touchedNoteOnInsert(h, key: key)
            + "UPDATE \(counter) SET \"rows\" = \"rows\" + 1, \"last_key\" = \(key);"
            + " END"

        // UPDATE: only what changed; Z_OPT follows the row version.
        var updateRefusals = refuse("a row's key or entity cannot change", when: "NEW.\(pk) IS NOT OLD.\(pk) OR NEW.\(StoreMapping.quotedEntityColumn) IS NOT OLD.\(StoreMapping.quotedEntityColumn)")
        var written: [String] = []   // view columns the UPDATE writes: a change to any is noted
        var sets = ["\"Z_OPT\" = CASE WHEN NEW.\(version) IS OLD.\(version) THEN \"Z_OPT\" ELSE NEW.\(version) END"]
        for c in h.columns {
            let q = SQLIdentifier.quoted(c.name)
            if let reason = c.unwritable {
                updateRefusals += refuse(reason, when: "NEW.\(q) IS NOT OLD.\(q)")
                continue
            }
            let cd = SQLIdentifier.quoted(c.cdColumn)
            written.append(c.name)
            sets.append("\(cd) = CASE WHEN NEW.\(q) IS OLD.\(q) THEN \(cd) ELSE \(encoded(c)) END")
            if let companion = c.companion, let value = companionValue(c) {
                let z = SQLIdentifier.quoted(companion)
                sets.append("\(z) = CASE WHEN NEW.\(q) IS OLD.\(q) THEN \(z) ELSE \(value) END")
            }
        }
        for o in h.orderColumns {
            let q = SQLIdentifier.quoted(o.name)
            guard let cdName = o.cdColumn else {
                updateRefusals += refuse("\(h.cdTable) has no ordering column for \(o.name)", when: "NEW.\(q) IS NOT OLD.\(q)")
                continue
            }
            // The view reads NULL as 0, so only a write of NULL itself is NULL here.
            updateRefusals += refuse("\(h.cdTable).\(cdName) needs an ordering value (past the largest integer?)", when: "NEW.\(q) IS NULL")
            let cd = SQLIdentifier.quoted(cdName)
            written.append(o.name)
            sets.append("\(cd) = CASE WHEN NEW.\(q) IS OLD.\(q) THEN \(cd) ELSE NEW.\(q) END")
        }
        let update = "CREATE TEMP TRIGGER \(SQLIdentifier.quoted("quarry_cd_update_" + h.name)) INSTEAD OF UPDATE ON \(view) BEGIN "
            + updateRefusals
            + "UPDATE \(table) SET \(sets.joined(separator: ", ")) WHERE \"Z_PK\" = OLD.\(pk);"
            + touchedNoteOnUpdate(h, changed: written)   // Z_OPT raised at COMMIT (CoreDataViews+Touched.swift)
            + "UPDATE \(counter) SET \"rows\" = \"rows\" + 1;"
            + " END"

        let delete = "CREATE TEMP TRIGGER \(SQLIdentifier.quoted("quarry_cd_delete_" + h.name)) INSTEAD OF DELETE ON \(view) BEGIN "
            + "DELETE FROM \(table) WHERE \"Z_PK\" = OLD.\(pk);"
            + "UPDATE \(counter) SET \"rows\" = \"rows\" + 1;"
            + " END"
        return [insert, update, delete]
    }

    private func joinTriggers(_ j: JoinView) -> [String] {
        let view = SQLIdentifier.quoted(j.name), table = SQLIdentifier.quoted(j.cdTable)
        let counter = SQLIdentifier.quoted(Self.writesTable)
        let source = SQLIdentifier.quoted(j.source), target = SQLIdentifier.quoted(j.target)
        let s = StoreMapping.quotedJoinSource, t = StoreMapping.quotedJoinTarget, p = StoreMapping.quotedJoinPosition
        var columns = [source, target], values = ["NEW.\(s)", "NEW.\(t)"]
        var insertRefusals = "", updateRefusals = ""
        if let position = j.position {
            // A row without a position (linked from the other side, which
            // has no order to give) goes last among its owner's members, in
            // Core Data's spacing; a save or the store's `placeLast` then
            // writes the value it means over it.
            let spacing = StoreMapping.OrderSpacing.coreData, fok = SQLIdentifier.quoted(position)
            let largest = "(SELECT max(x.\(fok)) FROM \(table) x WHERE x.\(source) = NEW.\(s))"
            columns.append(fok)
            values.append("coalesce(NEW.\(p), coalesce(\(largest), \(spacing.beforeFirst)) + \(spacing.step))")
            insertRefusals = "SELECT RAISE(ABORT, \(sqlString("Core Data store: \(j.cdTable).\(position) past the largest integer; nothing was written"))) "
                + "WHERE NEW.\(p) IS NULL AND \(largest) > \(spacing.lastFollowable);"
            updateRefusals = "SELECT RAISE(ABORT, \(sqlString("Core Data store: \(j.cdTable).\(position) needs an ordering value (past the largest integer?); nothing was written"))) "
                + "WHERE NEW.\(p) IS NULL;"
        }
        if let inversePosition = j.inversePosition {
            // Both sides ordered: the member's own list (which Quarry does
            // not keep) gets the new owner last, as Core Data's inverse
            // maintenance appends it, rather than no value at all.
            let spacing = StoreMapping.OrderSpacing.coreData, fok = SQLIdentifier.quoted(inversePosition)
            let largest = "(SELECT max(x.\(fok)) FROM \(table) x WHERE x.\(target) = NEW.\(t))"
            columns.append(fok)
            values.append("coalesce(\(largest), \(spacing.beforeFirst)) + \(spacing.step)")
            insertRefusals += "SELECT RAISE(ABORT, \(sqlString("Core Data store: \(j.cdTable).\(inversePosition) past the largest integer; nothing was written"))) "
                + "WHERE \(largest) > \(spacing.lastFollowable);"
        }
        let insert = "CREATE TEMP TRIGGER \(SQLIdentifier.quoted("quarry_cd_insert_" + j.name)) INSTEAD OF INSERT ON \(view) BEGIN "
            + insertRefusals
            + "INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES (\(values.joined(separator: ", ")));"
            + "UPDATE \(counter) SET \"rows\" = \"rows\" + 1;"
            + " END"
        var set = "\(source) = NEW.\(s), \(target) = NEW.\(t)"
        if let position = j.position { set += ", \(SQLIdentifier.quoted(position)) = NEW.\(p)" }
        let update = "CREATE TEMP TRIGGER \(SQLIdentifier.quoted("quarry_cd_update_" + j.name)) INSTEAD OF UPDATE ON \(view) BEGIN "
            + updateRefusals
            + "UPDATE \(table) SET \(set) WHERE \(source) = OLD.\(s) AND \(target) = OLD.\(t);"
            + "UPDATE \(counter) SET \"rows\" = \"rows\" + 1;"
            + " END"
        let delete = "CREATE TEMP TRIGGER \(SQLIdentifier.quoted("quarry_cd_delete_" + j.name)) INSTEAD OF DELETE ON \(view) BEGIN "
            + "DELETE FROM \(table) WHERE \(source) = OLD.\(s) AND \(target) = OLD.\(t);"
            + "UPDATE \(counter) SET \"rows\" = \"rows\" + 1;"
            + " END"
        return [insert, update, delete]
    }
}
