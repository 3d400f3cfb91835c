// Every quarry_* function QuarrySQLFunction says PostgreSQL defines is
// created by PostgresFunctions.installStatements in the schema, with the
// argument types the lowering calls it with (a call on typed NULLs gives
// NULL, STRICT), and the one it says is SQLite's only (quarry_matches:
// MATCHES lowers to `~` there) is not.
import QuarryBinding
import QuarryPostgres
import QuarryPostgresTestSupport
import Testing

@Suite(.postgres, .serialized) struct FunctionRegistrationOnPostgresTests {
    nonisolated(unsafe) static let shared: Result<PostgresDatabase, any Error> = Result {
        let db = try PostgresTestEnvironment.freshDatabase()
        for statement in PostgresFunctions.installStatements { try db.run(statement, []) }
        return db
    }

    @Test(arguments: QuarrySQLFunction.allCases)
    func createdAsTheEnumSays(function: QuarrySQLFunction) throws {
        let db = try Self.shared.get()
        let defined = try db.query("SELECT count(*) FROM pg_proc WHERE proname = ? AND pronamespace = current_schema()::regnamespace",
                                   [.string(function.sqlName)])
        #expect(defined == [[.int(function.isDefinedOnPostgres ? 1 : 0)]], "\(function.sqlName)")
        guard function.isDefinedOnPostgres else { return }
        let types = Array(repeating: "NULL::text", count: function.arity - 1) + ["NULL::integer"]
        #expect(try db.query("SELECT " + function.call(types.joined(separator: ", ")) + " IS NULL") == [[.bool(true)]])
    }
}
