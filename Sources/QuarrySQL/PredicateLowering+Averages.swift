// Averages of Integer 64 values in SQL, exactly as the evaluator computes
// them (Aggregates.average): the exact sum rounded once to a double, divided
// by the number of elements (`@avg`, a nil counting as 0) or of non-nil
// values (`average:`). SQLite's TOTAL and AVG add doubles, which loses bits
// once the values or partial sums pass 2^53 (the random-model fuzzer found
// `@avg` of Int64.max and Int64.min differing), and PostgreSQL's AVG divides
// as NUMERIC and rounds after. Smaller integer types never get there (their
// sums stay below 2^53 for under two million elements), so they keep TOTAL.
//
// SQLite: each value is split into its high 32 bits (`c >> 32`, which sign-
// extends) and its low 32 bits (`c & 0xFFFFFFFF`); neither sum can overflow
// or round below two billion elements, and `high * 2^32 + low` is then one
// IEEE addition of two exact doubles: the exact total, correctly rounded.
// PostgreSQL sums BIGINT as exact NUMERIC and rounds once on the cast.
import QuarryModel

extension PredicateLowerer {
    /// The average of the Integer 64 column expression `c`.
    func exactAverage(_ c: String, skippingNil: Bool) -> String {
        let count = skippingNil ? "COUNT(\(c))" : "COUNT(*)"
        switch context.dialect {
        case .postgres:
            return "(CAST(COALESCE(SUM(\(c)), 0) AS DOUBLE PRECISION) / NULLIF(\(count), 0))"
        case .sqlite:
            return "((CAST(COALESCE(SUM((\(c)) >> 32), 0) AS REAL) * 4294967296.0 + CAST(COALESCE(SUM((\(c)) & 4294967295), 0) AS REAL))"
                + " / NULLIF(\(count), 0))"
        }
    }
}
