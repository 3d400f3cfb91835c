// `?` → `$n` renumbering, as a pure function: no server needed. Literals,
// quoted identifiers and comments keep their question marks.
@testable import QuarryPostgres
import Testing

@Suite struct PlaceholderTests {
    @Test(arguments: [
        ("SELECT ?", "SELECT $1", 1),
        ("SELECT * FROM \"t\" WHERE \"a\" = ? AND \"b\" <> ?", "SELECT * FROM \"t\" WHERE \"a\" = $1 AND \"b\" <> $2", 2),
        ("SELECT 'what?' , ?", "SELECT 'what?' , $1", 1),
        ("SELECT 'it''s ?', ?", "SELECT 'it''s ?', $1", 1),
        ("SELECT \"odd?name\" FROM t WHERE x = ?", "SELECT \"odd?name\" FROM t WHERE x = $1", 1),
        ("SELECT \"a\"\"?\" = ?", "SELECT \"a\"\"?\" = $1", 1),
        ("SELECT ? -- why?\n, ?", "SELECT $1 -- why?\n, $2", 2),
        ("SELECT /* a ? /* nested ? */ still ? */ ?", "SELECT /* a ? /* nested ? */ still ? */ $1", 1),
        ("SELECT a - ? FROM t", "SELECT a - $1 FROM t", 1),
        ("SELECT 1", "SELECT 1", 0),
        ("SELECT 'unterminated ?", "SELECT 'unterminated ?", 0),
        ("SELECT ?,?,?,?,?,?,?,?,?,?,?", "SELECT $1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11", 11),
        ("SELECT 'Zoë ?' || ?", "SELECT 'Zoë ?' || $1", 1),
    ])
    func renumbers(input: String, expected: String, count: Int) {
        let (sql, n) = PostgresPlaceholders.renumber(input)
        #expect(sql == expected)
        #expect(n == count)
    }

    @Test func castsPinParameterTypesForPreparedStatements() {
        let (sql, n) = PostgresPlaceholders.renumber("SELECT * FROM t WHERE a > ? AND b = ? AND c IS ?", casts: ["::int8", "::text", ""])
        #expect(sql == "SELECT * FROM t WHERE a > $1::int8 AND b = $2::text AND c IS $3")
        #expect(n == 3)
    }
}
