// URL parsing: the defaults libpq users expect, percent-decoding, Unix
// sockets, redaction, and a clear message for each kind of malformed URL.
import QuarryPostgres
import Testing

@Suite struct PostgresURLTests {
    @Test func defaults() throws {
        let u = try PostgresURL("postgres://")
        #expect(u.user == "postgres")
        #expect(u.password == nil)
        #expect(u.host == "127.0.0.1")
        #expect(u.port == 5432)
        #expect(u.database == "postgres")
        #expect(u.schema == nil)
    }

    @Test func databaseDefaultsToTheUserName() throws {
        let u = try PostgresURL("postgresql://alice@db.example:6543")
        #expect(u.user == "alice")
        #expect(u.host == "db.example")
        #expect(u.port == 6543)
        #expect(u.database == "alice")
    }

    @Test func everyPartAndQueryItem() throws {
        let u = try PostgresURL("postgres://app:p%40ss%3Aword@10.0.0.5:5433/my%20db?schema=tenant_1&connect_timeout=2.5&statement_timeout=5s&lock_timeout=250ms&application_name=shell")
        #expect(u.user == "app")
        #expect(u.password == "p@ss:word")
        #expect(u.host == "10.0.0.5")
        #expect(u.port == 5433)
        #expect(u.database == "my db")
        #expect(u.schema == "tenant_1")
        #expect(u.connectTimeout == 2.5)
        #expect(u.statementTimeout == "5s")
        #expect(u.lockTimeout == "250ms")
        #expect(u.applicationName == "shell")
        // Rendered back and parsed again, the lock timeout survives.
        #expect(try PostgresURL(u.urlString).lockTimeout == "250ms")
        #expect(u.endpoint == "10.0.0.5:5433")
    }

    @Test func unixSocketDirectory() throws {
        let u = try PostgresURL("postgres://postgres@/quarry?host=/tmp/pg%20dir&port=54329")
        #expect(u.host == nil)
        #expect(u.socketDirectory == "/tmp/pg dir")
        #expect(u.socketPath == "/tmp/pg dir/.s.PGSQL.54329")
        #expect(u.database == "quarry")
    }

    @Test func ipv6Host() throws {
        let u = try PostgresURL("postgres://u@[::1]:5440/d")
        #expect(u.host == "::1")
        #expect(u.port == 5440)
        #expect(u.endpoint == "[::1]:5440")
    }

    @Test func unencodedAtInPasswordUsesTheLastAt() throws {
        let u = try PostgresURL("postgres://u:a@b@h/d")
        #expect(u.password == "a@b")
        #expect(u.host == "h")
    }

    @Test func redactedHidesThePasswordOnly() throws {
        let u = try PostgresURL("postgres://app:s3cret@127.0.0.1:5432/quarry?schema=s1")
        #expect(u.redacted == "postgres://app:***@127.0.0.1:5432/quarry?schema=s1")
        #expect(!u.redacted.contains("s3cret"))
        #expect("\(u)" == u.redacted)
        #expect(try PostgresURL(u.urlString) == u)
        let noPassword = try PostgresURL("postgres://app@h/d")
        #expect(noPassword.redacted == "postgres://app@h:5432/d")
    }

    @Test(arguments: [
        ("mysql://root@h/db", "must start with postgres://"),
        ("127.0.0.1:5432", "must start with postgres://"),
        ("postgres://h:notaport/db", "port \"notaport\""),
        ("postgres://h:70000/db", "port \"70000\""),
        ("postgres://u%zz@h/db", "bad percent escape in the user name"),
        ("postgres://h/db?statment_timeout=5", "unknown query item \"statment_timeout\""),
        ("postgres://h/db?schema=bad-name", "not a plain identifier"),
        ("postgres://h/db?schema=1abc", "not a plain identifier"),
        ("postgres://h/db?sslmode=require", "does not use TLS"),
        ("postgres://h/db?connect_timeout=-1", "connect_timeout must be a positive number"),
        ("postgres://h/db?statement_timeout=soon", "statement_timeout must be"),
        ("postgres://h/db?lock_timeout=later", "lock_timeout must be"),
        ("postgres://h/a/b", "contains a /"),
        ("postgres://h/db?schema", "has no =value"),
        ("postgres://[::1/db", "missing ]"),
    ])
    func malformed(text: String, fragment: String) {
        do {
            _ = try PostgresURL(text)
            Issue.record("\(text) parsed")
        } catch let e as PostgresDatabaseError {
            #expect(e.kind == .malformedURL)
            #expect(e.message.contains(fragment), "\(e.message)")
            #expect(e.message.hasPrefix("malformed PostgreSQL URL"))
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func malformedURLMessagesDoNotShowThePassword() {
        #expect(throws: PostgresDatabaseError.self) { try PostgresURL("postgres://u:hunter2@h:x/d") }
        do { _ = try PostgresURL("postgres://u:hunter2@h:x/d") } catch {
            #expect(!"\(error)".contains("hunter2"))
        }
    }
}
