// Derived attributes in a migration: a derived attribute the new model adds
// (or whose derivation it changes) is computed for every existing row, in
// the migration's transaction, by the same SQL a save uses
// (QuarrySQL/DerivedColumns.swift), with `now()` the migration's instant.
// `canonical:` is Quarry's `quarry_fold(x, 3)`, which folds exactly as the
// evaluator does; `lowercase:` and `uppercase:` have no such SQL (SQL's
// lower() and upper() are ASCII-only on SQLite), so adding one to a store
// is refused, naming it, rather than leaving its rows without a value.
import Foundation
import QuarryBinding

extension Migration {
    static func derivedSteps(_ difference: ModelDifference, mapping: StoreMapping, location: String) throws -> [MigrationStep] {
        guard !mapping.derived.isEmpty else { return [] }
        var steps: [MigrationStep] = []
        let now = Date().timeIntervalSinceReferenceDate
        for d in mapping.derived {
            let before = difference.old.entity(named: d.entity)?.attribute(named: d.attribute, in: difference.old)
            if before?.derivation == d.derivation.text { continue }
            var value: SQLFragment
            do { value = try mapping.derivedValue(d, now: now) } catch {
                throw MigrationError.notInferable(location: location, refusals: ["\(d.entity).\(d.attribute): \(error)"])
            }
            switch d.derivation.textFunction {
            case .canonical?: value = QuarrySQLFunction.fold.call(value, flags: 3)   // [cd], as canonical: folds
            case .lowercase?, .uppercase?:
                throw MigrationError.notInferable(location: location, refusals: [
                    "\(d.entity).\(d.attribute): a derived \(d.derivation.textFunction!.rawValue): attribute cannot be computed for existing rows in SQL "
                        + "(add it in a model version of its own to an empty store, or use canonical:)"])
            case nil: break
            }
            let filter = mapping.derivedRowFilter(d)
            steps.append(MigrationStep("UPDATE " + d.quotedTable + " SET " + d.quotedColumn + " = " + value.sql + (filter.map { " WHERE " + $0.sql } ?? ""),
                                       value.arguments + (filter?.arguments ?? [])))
        }
        return steps
    }
}
