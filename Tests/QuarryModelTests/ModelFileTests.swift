// Reading from the file system: every format by its extension, Core Data
// bundles with and without `.xccurrentversion`, and the examples in
// Examples/Models (the Company model must read the same from YAML and from
// its .xcdatamodeld).
import Foundation
import QuarrySyntax
import Testing
@testable import QuarryModel

@Suite struct ModelFileTests {
    static let exampleFiles: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: Fixtures.examples.path)) ?? []
        return names.filter { !$0.hasSuffix(".md") }.sorted()
    }()

    @Test func theExamplesAreThere() {
        #expect(Self.exampleFiles == ["Books.yaml", "Company.xcdatamodeld", "Company.yaml", "Tasks.yaml"])
    }

    @Test(arguments: exampleFiles)
    func everyExampleLoadsAndItsTemplatesParse(_ name: String) throws {
        let model = try ModelReader.read(from: Fixtures.examples.appendingPathComponent(name).path)
        #expect(!model.entities.isEmpty)
        #expect(model.validationErrors().isEmpty)
        for template in model.fetchRequestTemplates {
            let format = try #require(template.predicateFormat)
            // The stored tree is what the parser makes of the stored text.
            #expect(template.predicate == (try Parser.parsePredicate(format)))
            #expect(model.entity(named: template.entity) != nil)
        }
    }

    @Test func companyReadsTheSameFromYAMLAndFromXcode() throws {
        let yaml = try ModelReader.read(from: Fixtures.examples.appendingPathComponent("Company.yaml").path)
        let xcode = try ModelReader.read(from: Fixtures.examples.appendingPathComponent("Company.xcdatamodeld").path)
        for (a, b) in zip(yaml.entities, xcode.entities) { #expect(a == b) }
        #expect(yaml == xcode)
        #expect(xcode.file.hasSuffix("Company.xcdatamodeld/Company.xcdatamodel/contents"))
    }

    @Test func companyShape() throws {
        let model = try ModelReader.read(from: Fixtures.examples.appendingPathComponent("Company.yaml").path)
        #expect(model.entityNames == ["Department", "Employee", "Project"])
        let employee = try #require(model.entity(named: "Employee"))
        #expect(employee.attributes.map(\.name) == ["name", "age", "salary", "startDate", "active", "email"])
        #expect(employee.attribute(named: "salary", in: model)?.defaultValue == .int(50000))
        #expect(employee.attribute(named: "active", in: model)?.defaultValue == .bool(true))
        let projects = try #require(employee.relationship(named: "projects", in: model))
        let members = try #require(model.entity(named: "Project")?.relationship(named: "members", in: model))
        #expect(projects.isToMany && members.isToMany && projects.inverse == "members" && members.inverse == "projects")
        #expect(model.entity(named: "Department")?.relationships.first?.deleteRule == .cascade)
        #expect(model.entity(named: "Department")?.uniquenessConstraints == [UniquenessConstraint(["name"])])
        let template = try #require(model.fetchRequestTemplate(named: "onBigProjects"))
        #expect(template.predicate.map(Printer.format) == "ANY projects.budget > $minimum")
    }

    @Test func tasksAndBooks() throws {
        let tasks = try ModelReader.read(from: Fixtures.examples.appendingPathComponent("Tasks.yaml").path)
        let task = try #require(tasks.entity(named: "Task"))
        #expect(task.attributes.map(\.type) == [.string, .date, .boolean])
        #expect(task.attributes[2].defaultValue == .bool(false))
        let books = try ModelReader.read(from: Fixtures.examples.appendingPathComponent("Books.yaml").path)
        let book = try #require(books.entity(named: "Book"))
        #expect(book.relationship(named: "publisher", in: books)?.inverse == "books")
        #expect(book.attribute(named: "price", in: books)?.type == .decimal)
        #expect(book.uniquenessConstraints == [UniquenessConstraint(["isbn"])])
        #expect(books.entity(named: "Publisher")?.relationships.first?.deleteRule == .deny)
    }

    // MARK: - Formats by path

    @Test func everyPathShapeReadsTheSameModel() throws {
        let folder = Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fm = FileManager.default
        let expected = try ModelReader.read(xml: Fixtures.inheritanceXML)

        let yamlPath = folder.appendingPathComponent("m.yml").path
        try Fixtures.inheritanceYAML.write(toFile: yamlPath, atomically: true, encoding: .utf8)
        #expect(try ModelReader.read(from: yamlPath) == expected)

        // A bundle with two versions and a marker naming the older one.
        let bundle = folder.appendingPathComponent("App.xcdatamodeld")
        for version in ["App.xcdatamodel", "App 2.xcdatamodel"] {
            try fm.createDirectory(at: bundle.appendingPathComponent(version), withIntermediateDirectories: true)
        }
        try Fixtures.inheritanceXML.write(to: bundle.appendingPathComponent("App.xcdatamodel/contents"), atomically: true, encoding: .utf8)
        try Fixtures.xml("<entity name=\"Other\"/>").write(to: bundle.appendingPathComponent("App 2.xcdatamodel/contents"), atomically: true, encoding: .utf8)
        try Self.plist("App.xcdatamodel").write(to: bundle.appendingPathComponent(".xccurrentversion"), atomically: true, encoding: .utf8)
        #expect(try ModelReader.read(from: bundle.path) == expected)

        // Without the marker, the last version by name.
        try fm.removeItem(at: bundle.appendingPathComponent(".xccurrentversion"))
        #expect(try ModelReader.read(from: bundle.path).entityNames == ["Other"])

        // One version folder, and its bare contents file.
        #expect(try ModelReader.read(from: bundle.appendingPathComponent("App.xcdatamodel").path) == expected)
        #expect(try ModelReader.read(from: bundle.appendingPathComponent("App.xcdatamodel/contents").path) == expected)
    }

    @Test func jsonFile() throws {
        let folder = Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("m.json").path
        try """
        {
        \t"entities": {
        \t\t"Department": { "attributes": { "name": { "type": "string", "optional": false } },
        \t\t                "relationships": { "employees": { "to": "Employee", "many": true, "inverse": "department" } } },
        \t\t"Employee": { "relationships": { "department": "Department" } }
        \t},
        \t"fetchRequests": { "sales": { "entity": "Employee", "predicate": "department.name == 'Sales'" } }
        }
        """.write(toFile: path, atomically: true, encoding: .utf8)
        let model = try ModelReader.read(from: path)
        #expect(model.entityNames == ["Department", "Employee"])
        #expect(model.entity(named: "Employee")?.relationships.first?.inverse == "employees")
        #expect(model.fetchRequestTemplate(named: "sales")?.predicate != nil)
    }

    @Test func minifiedJSON() throws {
        let model = try ModelReader.read(json: #"{"entities":{"E":{"attributes":{"n":{"type":"integer32","default":3}},"relationships":{"self_":"E"}}},"fetchRequests":{"big":{"entity":"E","predicate":"n > 2"}}}"#)
        #expect(model.entity(named: "E")?.attributes.first?.defaultValue == .int(3))
        #expect(model.entity(named: "E")?.relationships.first?.destination == "E")
        #expect(model.fetchRequestTemplate(named: "big")?.predicateFormat == "n > 2")
    }

    struct PathCase: Sendable, CustomStringConvertible {
        var name: String
        var setUp: @Sendable (URL) throws -> String
        var message: String
        var description: String { name }
    }

    static let pathCases: [PathCase] = [
        PathCase(name: "missing file", setUp: { $0.appendingPathComponent("nope.yaml").path }, message: "no such file"),
        PathCase(name: "unknown extension", setUp: { url in
            let p = url.appendingPathComponent("model.txt").path
            try "x".write(toFile: p, atomically: true, encoding: .utf8)
            return p
        }, message: "cannot tell the model format"),
        PathCase(name: "version named by the marker is missing", setUp: { url in
            let b = url.appendingPathComponent("A.xcdatamodeld")
            try FileManager.default.createDirectory(at: b.appendingPathComponent("A.xcdatamodel"), withIntermediateDirectories: true)
            try Fixtures.xml("").write(to: b.appendingPathComponent("A.xcdatamodel/contents"), atomically: true, encoding: .utf8)
            try ModelFileTests.plist("A 3.xcdatamodel").write(to: b.appendingPathComponent(".xccurrentversion"), atomically: true, encoding: .utf8)
            return b.path
        }, message: "the current version 'A 3.xcdatamodel' is not in the bundle"),
        PathCase(name: "malformed marker", setUp: { url in
            let b = url.appendingPathComponent("A.xcdatamodeld")
            try FileManager.default.createDirectory(at: b.appendingPathComponent("A.xcdatamodel"), withIntermediateDirectories: true)
            try "<plist><dict><key>".write(to: b.appendingPathComponent(".xccurrentversion"), atomically: true, encoding: .utf8)
            return b.path
        }, message: "malformed property list"),
        PathCase(name: "empty bundle", setUp: { url in
            let b = url.appendingPathComponent("A.xcdatamodeld")
            try FileManager.default.createDirectory(at: b, withIntermediateDirectories: true)
            return b.path
        }, message: "holds no .xcdatamodel version"),
        PathCase(name: "version without contents", setUp: { url in
            let v = url.appendingPathComponent("Old.xcdatamodel")
            try FileManager.default.createDirectory(at: v, withIntermediateDirectories: true)
            return v.path
        }, message: "no 'contents' file"),
    ]

    @Test(arguments: pathCases)
    func pathErrors(_ c: PathCase) throws {
        let folder = Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try c.setUp(folder)
        #expect {
            _ = try ModelReader.read(from: path)
        } throws: { error in
            guard let error = error as? ModelError else { return false }
            return error.message.contains(c.message) && error.file.hasPrefix(folder.path)
        }
    }

    @Test func errorsInABundleNameTheContentsFile() throws {
        let folder = Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let version = folder.appendingPathComponent("B.xcdatamodeld/B.xcdatamodel")
        try FileManager.default.createDirectory(at: version, withIntermediateDirectories: true)
        try Fixtures.xml("    <entity name=\"A\" parentEntity=\"Nope\"/>").write(to: version.appendingPathComponent("contents"), atomically: true, encoding: .utf8)
        do {
            _ = try ModelReader.read(from: folder.appendingPathComponent("B.xcdatamodeld").path)
            Issue.record("expected an error")
        } catch {
            #expect(error.file == version.appendingPathComponent("contents").path)
            #expect(error.line == 3)
            #expect(error.description.hasPrefix(version.appendingPathComponent("contents").path + ":3:"))
        }
    }

    static func plist(_ current: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
        \t<key>_XCCurrentVersionName</key>
        \t<string>\(current)</string>
        </dict>
        </plist>
        """
    }
}
