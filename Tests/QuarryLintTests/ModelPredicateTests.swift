// The predicates stored in models — fetch request templates, fetched
// properties — are linted against their entity, and each finding lands on
// the character of the XML attribute it is about, past `&lt;` entities.
import Foundation
import QuarryLint
import QuarryModel
import Testing

@Suite struct LintModelPredicateTests {
    static let xml = """
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" systemVersion="1" minimumToolsVersion="Automatic" sourceLanguage="Swift">
        <entity name="Employee" representedClassName="Employee" syncable="YES">
            <attribute name="name" optional="YES" attributeType="String"/>
            <attribute name="age" optional="YES" attributeType="Integer 16" defaultValueString="0" usesScalarValueType="YES"/>
            <fetchedProperty name="peers" optional="YES">
                <fetchRequest name="fetchedPropertyFetchRequest" entity="Employee" predicateString="age == $FETCH_SOURCE.age AND nam == 'x'"/>
            </fetchedProperty>
        </entity>
        <fetchRequest name="young" entity="Employee" predicateString="agee &lt; 30"/>
        <fetchRequest name="named" entity="Employee" predicateString="age &lt; 30 AND nmae == 'x'"/>
        <fetchRequest name="fine" entity="Employee" predicateString="name BEGINSWITH 'A'"/>
    </model>
    """

    @Test func templatesAndFetchedProperties() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-lint-model-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("contents").path
        try Self.xml.write(toFile: path, atomically: true, encoding: .utf8)
        let model = try ModelReader.read(xml: Self.xml, file: path)
        let findings = Linter.lintModel(model).sorted { ($0.line, $0.column) < ($1.line, $1.column) }
        // Line 7, the fetched property: `nam` after `…predicateString="age == $FETCH_SOURCE.age AND `.
        // Line 10: `agee` is the first character of the value; line 11: `nmae` after `age &lt; 30 AND `.
        #expect(findings.map { "\($0.rule.rawValue)@\($0.line):\($0.column)" } == ["QL004@7:126", "QL004@10:67", "QL004@11:83"])
        #expect(findings.map(\.hints) == [["did you mean 'name'?"], ["did you mean 'age'?"], ["did you mean 'name'?"]])
    }

    @Test func aStoredPredicateThatDoesNotParseIsAFinding() throws {
        let bad = Self.xml.replacingOccurrences(of: "name BEGINSWITH 'A'", with: "name BEGINSWITH")
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-lint-model-\(UUID().uuidString).xcdatamodel")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try bad.write(to: dir.appendingPathComponent("contents"), atomically: true, encoding: .utf8)
        let (models, findings) = try Linter.loadModels([dir.path])
        #expect(models.isEmpty)
        #expect(findings.map(\.rule) == [.parseError])
        #expect(findings.first?.line == 12)
    }
}
