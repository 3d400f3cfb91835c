// First light: the example models generate and write in every format.
import Foundation
import Testing
@testable import QuarryFixtures

@Suite struct SmokeTests {
    @Test func companyWritesSQLite() throws {
        let model = try ModelReader.read(from: Fixtures.examples + "/Models/Company.yaml")
        let generator = try FixtureGenerator(model: model, seed: 1, counts: ["Employee": 50, "Department": 5, "Project": 4])
        let path = Fixtures.temporaryPath("smoke.sqlite")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let summary = try generator.write(to: path)
        #expect(summary.objects["Employee"] == 50)
        let store = try SQLStore(path: path, model: model)
        #expect(try store.connection.scalar("SELECT count(*) FROM Employee") == .int(50))
        let rows = try store.connection.query("SELECT name, email, salary FROM Employee LIMIT 5")
        print(rows)
    }
}
