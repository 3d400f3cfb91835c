// The shell prints what the model reader converted the way Core Data does
// (ModelWarning) on stderr, as `file:line:column: warning: ...`, whether the
// model comes from --model or from `.model`, and goes on working.
import Foundation
import Testing
@testable import QuarryShell

@Suite struct ModelWarningShellTests {
    /// A Core Data `contents` file whose Integer 16 default is written `0.0`,
    /// as Xcode leaves it when a Double becomes an integer.
    static func oddModel() throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-warn-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("contents.xml").path
        try """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
            <entity name="Item" representedClassName="Item" syncable="YES">
                <attribute name="count" optional="YES" attributeType="Integer 16" defaultValueString="0.0" usesScalarValueType="YES"/>
            </entity>
        </model>
        """.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func modelOptionPrintsTheWarning() throws {
        let path = try Self.oddModel()
        let r = transcript([.command(".schema Item")], store: .sqlite(":memory:"), modelPath: path)
        #expect(r.status == 0, "\(r.err)")
        #expect(r.err == "\(path):4:95: warning: attribute 'count' of Item: default value '0.0' read as 0, as Core Data reads it\n")
        #expect(r.out.contains("count"))
    }

    @Test func dotModelPrintsTheWarning() throws {
        let path = try Self.oddModel()
        let r = transcript([.command(".model \(path)")], store: .sqlite(":memory:"))
        #expect(r.status == 0, "\(r.err)")
        #expect(r.err.contains("warning: attribute 'count' of Item: default value '0.0' read as 0"))
    }
}
