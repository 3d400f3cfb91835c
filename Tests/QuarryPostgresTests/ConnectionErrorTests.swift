// Connecting fails with clear, classified errors and never hangs: nothing
// listening, a database or role that does not exist, a schema name that is
// not an identifier. (A wrong *password* cannot be tested on the throwaway
// cluster: it trusts every local connection.)
import Foundation
import QuarryPostgres
import QuarryPostgresTestSupport
import Testing

/// A loopback port nobody listens on: bind to port 0, note the port, close.
func unusedLoopbackPort() -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var addr = sockaddr_in()
    addr.sin_family = sa_family_t(AF_INET)
    addr.sin_port = 0
    addr.sin_addr.s_addr = inet_addr("127.0.0.1")
    var len = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, len) } }
    _ = withUnsafeMutablePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) } }
    return Int(UInt16(bigEndian: addr.sin_port))
}

@Suite struct ConnectionRefusedTests {
    // Needs no server: nothing listens on the port.
    @Test func nothingListening() {
        let port = unusedLoopbackPort()
        let start = Date()
        do {
            _ = try PostgresDatabase(url: "postgres://postgres@127.0.0.1:\(port)/postgres?connect_timeout=3")
            Issue.record("connected to an unused port")
        } catch let e as PostgresDatabaseError {
            #expect(e.kind == .connectionFailed)
            #expect(e.message == "could not connect to 127.0.0.1:\(port): connection refused — is the server running?")
        } catch {
            Issue.record("unexpected \(error)")
        }
        #expect(Date().timeIntervalSince(start) < 3)
    }

    @Test func missingSocket() {
        #expect {
            try PostgresDatabase(url: "postgres://postgres@/postgres?host=/nonexistent-quarry-dir&connect_timeout=2")
        } throws: { error in
            let e = error as? PostgresDatabaseError
            return e?.kind == .connectionFailed && e?.message.hasPrefix("could not connect to /nonexistent-quarry-dir/.s.PGSQL.5432") == true
        }
    }
}

@Suite(.postgres) struct ConnectionErrorTests {
    @Test func unknownDatabase() throws {
        var url = try PostgresTestEnvironment.requireURL()
        url.database = "quarry_no_such_database"
        #expect {
            try PostgresDatabase(url: url)
        } throws: { error in
            let e = error as? PostgresDatabaseError
            return e?.kind == .databaseNotFound && e?.sqlState == "3D000"
                && e?.message.contains("database \"quarry_no_such_database\" does not exist") == true
        }
    }

    @Test func unknownRole() throws {
        var url = try PostgresTestEnvironment.requireURL()
        url.user = "quarry_no_such_role"
        #expect {
            try PostgresDatabase(url: url)
        } throws: { error in
            let e = error as? PostgresDatabaseError
            return e?.kind == .authenticationFailed && e?.sqlState == "28000"
                && e?.message.contains("role \"quarry_no_such_role\" does not exist") == true
        }
    }

    @Test func invalidSchemaOption() throws {
        var options = PostgresDatabase.Options()
        options.schema = "x\"; DROP SCHEMA public; --"
        #expect {
            try PostgresDatabase(url: PostgresTestEnvironment.requireURL(), options: options)
        } throws: { ($0 as? PostgresDatabaseError)?.kind == .malformedURL }
    }

    @Test func unixSocketConnection() throws {
        // The test server script puts its socket in the cluster directory;
        // find it from the server itself, then connect through it.
        let db = try PostgresTestEnvironment.freshDatabase()
        defer { db.close() }
        let rows = try db.query("SELECT current_setting('unix_socket_directories'), current_setting('port')", [], as: [.string, .string])
        guard case .string(let dirs) = rows[0][0], case .string(let port) = rows[0][1],
              let dir = dirs.split(separator: ",").first.map({ String($0).trimmingCharacters(in: .whitespaces) }),
              dir.hasPrefix("/") else { return }
        guard FileManager.default.fileExists(atPath: "\(dir)/.s.PGSQL.\(port)") else { return }
        let socketDB = try PostgresDatabase(url: "postgres://postgres@/postgres?host=\(dir)&port=\(port)&schema=\(db.schema)")
        defer { socketDB.close() }
        #expect(try socketDB.query("SELECT 1", [], as: [.int]) == [[.int(1)]])
        #expect(socketDB.schema == db.schema)
    }
}

/// With QUARRY_REQUIRE_POSTGRES=1 (CI) a missing or unreachable server is a
/// failure, not a skip; without it this checks nothing beyond the notice.
@Suite struct PostgresRequirementTests {
    @Test func requiredServerIsReachable() throws {
        guard PostgresTestEnvironment.isRequired else {
            if !PostgresTestEnvironment.isAvailable { #expect(!PostgresTestEnvironment.shouldRun) }
            return
        }
        #expect(PostgresTestEnvironment.url != nil, "QUARRY_REQUIRE_POSTGRES=1 but QUARRY_POSTGRES_URL is not set")
        try PostgresTestEnvironment.withFreshDatabase { (db: PostgresDatabase) throws in
            #expect(try db.query("SELECT 1", [], as: [.int]) == [[.int(1)]])
        }
    }
}
