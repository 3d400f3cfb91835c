// The integer types' ranges on the write paths that skip validation. Core
// Data runs no validation for batch updates, but an `integer16` column must
// still never hold 99999999999: SQLite would keep it (its integers are all
// 64-bit), and every later read would hand out a value the type cannot
// hold. A batch update that SQL computes (`SET age = age * 1000`) is checked
// after its statement, inside its transaction, so a value out of range rolls
// the whole update back; constants are checked before (`StoreValues`).
import Foundation

extension SQLStore {
    /// Throws `StoreError.outOfRange` when a column `keys` names, of an
    /// integer attribute of `entity`, holds a value outside the type's range
    /// (or, on SQLite, one that overflowed into a REAL). Run it inside the
    /// write's transaction.
    func checkIntegerRanges(entity: String, keys: [String]) throws {
        guard let e = model.entity(named: entity), let table = mapping.table(for: entity) else { return }
        for key in keys {
            guard let a = e.attribute(named: key, in: model), let range = a.type.integerRange,
                  let column = mapping.column(for: key, of: entity) else { continue }
            let c = SQLIdentifier.quoted(column)
            // SQLite turns an integer that overflows 64 bits into a REAL (a
            // PostgreSQL BIGINT raises an error of its own).
            let overflow = database.dialect == .sqlite ? " OR typeof(\(c)) = 'real'" : ""
            if a.type == .integer64 && overflow.isEmpty { continue }
            let rows = try database.rows("SELECT \(SQLIdentifier.quoted(StoreMapping.primaryKey)), \(c) FROM \(SQLIdentifier.quoted(table)) WHERE \(c) < ? OR \(c) > ?\(overflow) LIMIT 1",
                                         [.int(range.lowerBound), .int(range.upperBound)])
            if let row = rows.first {
                throw StoreError.outOfRange(key: key, entity: entity, value: row[1], type: a.type.yamlName,
                                            range: "\(range.lowerBound)…\(range.upperBound)")
            }
        }
    }
}
