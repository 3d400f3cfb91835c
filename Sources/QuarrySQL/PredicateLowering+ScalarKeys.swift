// Scalar keys after an attribute in SQL (`salary.doubleValue`,
// `startDate.timeIntervalSinceReferenceDate`): the binder has already
// checked them against ScalarKey, the table the evaluator follows. Only the
// conversions whose value SQL gives exactly as KeyAccess.scalarKey does are
// lowered — a number to a double, an integer to an integer, a date to its
// seconds; every other one (`length` counts UTF-16 units, `stringValue`
// prints numbers Apple's way, `boolValue` parses text...) is `unsupported`,
// so its conjunct runs in memory through the evaluator itself and the two
// engines agree by construction.
import QuarryModel
import QuarryBinding

extension PredicateLowerer {
    /// `sql` (a value of `type`) with `suffix` applied, and its new type.
    func converted(_ sql: String, type: AttributeType, suffix: [ScalarKey]) throws(LoweringError) -> (sql: String, type: AttributeType) {
        var sql = sql
        var type = type
        for key in suffix {
            switch key {
            case .identity:
                continue
            case .doubleValue where type.isNumeric || type == .boolean, .floatValue where type.isNumeric || type == .boolean:
                // The evaluator's floatValue is the double (Number.doubleValue).
                // Decimals are stored as REAL already.
                if !(type == .double || type == .float || type == .decimal) {
                    sql = "CAST(\(sql) AS \(context.dialect == .postgres ? "DOUBLE PRECISION" : "REAL"))"
                }
                type = .double
            case .intValue where type.isInteger, .integerValue where type.isInteger, .longLongValue where type.isInteger:
                // An integer (or a 0/1 boolean) is its own integer value.
                type = .integer64
            case .timeIntervalSinceReferenceDate where type == .date:
                // Dates are stored as these seconds.
                type = .double
            default:
                throw .unsupported("\(key.rawValue) of \(type.rawValue) in SQL")
            }
        }
        return (sql, type)
    }
}
