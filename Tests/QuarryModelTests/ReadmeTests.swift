// Examples/Models/README.md must not go stale: its YAML sample reads as a
// valid model, and the error lines it shows are what Quarry prints for the
// mistakes they describe.
import Foundation
import Testing
@testable import QuarryModel

@Suite struct ReadmeTests {
    static let readme = (try? String(contentsOf: Fixtures.examples.appendingPathComponent("README.md"), encoding: .utf8)) ?? ""

    /// The fenced blocks of the README, by their info string.
    static func blocks(_ info: String) -> [String] {
        var result: [String] = []
        var current: [Substring]?
        var currentInfo = ""
        for line in readme.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") {
                if let lines = current {
                    if currentInfo == info { result.append(lines.joined(separator: "\n")) }
                    current = nil
                } else {
                    current = []
                    currentInfo = String(line.dropFirst(3))
                }
            } else {
                current?.append(line)
            }
        }
        return result
    }

    @Test func theYAMLSampleIsAValidModel() throws {
        let sample = try #require(Self.blocks("yaml").first)
        let model = try ModelReader.read(yaml: sample, file: "README.md")
        #expect(model.entityNames == ["Person", "Employee", "Department", "Project"])
        let employee = try #require(model.entity(named: "Employee"))
        #expect(employee.allAttributes(in: model).first?.name == "name")
        #expect(employee.relationship(named: "reports", in: model)?.inverse == "manager")
        #expect(employee.fetchIndexes.map(\.name) == ["byAgeIndex", "byDepartmentSalaryIndex"])
        #expect(employee.uniquenessConstraints == [UniquenessConstraint(["email"]), UniquenessConstraint(["name", "startDate"])])
    }

    @Test func theErrorLinesAreReal() throws {
        let shown = try #require(Self.blocks("").first { $0.contains("error:") })
            .split(separator: "\n").map(String.init)
        #expect(shown.count == 2)
        let folder = Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fm = FileManager.default
        for name in ["Company.yaml", "Company.xcdatamodeld"] {
            try fm.copyItem(at: Fixtures.examples.appendingPathComponent(name), to: folder.appendingPathComponent(name))
        }
        func edit(_ path: String, _ old: String, _ new: String) throws {
            let url = folder.appendingPathComponent(path)
            let text = try String(contentsOf: url, encoding: .utf8)
            #expect(text.contains(old))
            try text.replacingOccurrences(of: old, with: new).write(to: url, atomically: true, encoding: .utf8)
        }
        try edit("Company.yaml", "{ to: Department, delete", "{ to: Departmnt, delete")
        try edit("Company.xcdatamodeld/Company.xcdatamodel/contents", "salary &gt; 100000", "salary &gt; AND 100000")
        var printed: [String] = []
        for name in ["Company.yaml", "Company.xcdatamodeld"] {
            do {
                _ = try ModelReader.read(from: folder.appendingPathComponent(name).path)
            } catch {
                printed.append(error.description.replacingOccurrences(of: folder.path + "/", with: ""))
            }
        }
        #expect(printed == shown)
    }
}
