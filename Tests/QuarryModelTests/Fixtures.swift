// Shared fixtures: Core Data XML the way Xcode writes it (header, <model>
// element, entities, <elements> layout), and paths to Examples/Models.
import Foundation
@testable import QuarryModel

enum Fixtures {
    /// A `contents` document: line 1 is the XML declaration, line 2 the
    /// <model> tag, so `body` starts on line 3.
    static func xml(_ body: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22522" systemVersion="23C71" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
        \(body)
            <elements>
                <element name="Placeholder" positionX="-63" positionY="-18" width="128" height="44"/>
            </elements>
        </model>
        """
    }

    /// The package root, found from this file's path.
    static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static let examples = packageRoot.appendingPathComponent("Examples/Models")

    /// A fresh temporary folder for file-system tests.
    static func temporaryFolder() -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-model-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// A model with inheritance, the shapes of a typical app model:
    /// abstract Person, Employee and Customer below it, a to-many ordered
    /// relationship, a fetched property, indexes and constraints, userInfo.
    static let inheritanceXML = xml("""
        <entity name="Person" representedClassName="Person" isAbstract="YES" syncable="YES" codeGenerationType="class">
            <attribute name="name" attributeType="String" minValueString="1" maxValueString="80"/>
            <attribute name="email" optional="YES" attributeType="String" regularExpressionString="[^@]+@[^@]+"/>
            <attribute name="identifier" optional="YES" attributeType="UUID" usesScalarValueType="NO"/>
            <relationship name="notes" optional="YES" toMany="YES" ordered="YES" minCount="1" maxCount="10" deletionRule="Cascade" destinationEntity="Note" inverseName="person" inverseEntity="Note"/>
            <userInfo>
                <entry key="table" value="people"/>
            </userInfo>
        </entity>
        <entity name="Employee" representedClassName="Employee" parentEntity="Person" syncable="YES" codeGenerationType="class">
            <attribute name="salary" optional="YES" attributeType="Integer 64" defaultValueString="0" usesScalarValueType="YES"/>
            <attribute name="badge" optional="YES" attributeType="Integer 32" indexed="YES" usesScalarValueType="YES"/>
            <fetchedProperty name="colleagues" optional="YES">
                <fetchRequest name="fetchedPropertyFetchRequest" entity="Employee" predicateString="salary &gt;= $FETCH_SOURCE.salary AND self != $FETCH_SOURCE"/>
            </fetchedProperty>
            <uniquenessConstraints>
                <uniquenessConstraint>
                    <constraint value="name"/>
                    <constraint value="email"/>
                </uniquenessConstraint>
            </uniquenessConstraints>
        </entity>
        <entity name="Customer" representedClassName="Customer" parentEntity="Person" syncable="YES" codeGenerationType="class">
            <attribute name="since" optional="YES" attributeType="Date" minDateTimeInterval="0" maxDateTimeInterval="1000000000" usesScalarValueType="NO"/>
            <compoundIndexes>
                <compoundIndex>
                    <index value="since"/>
                    <index value="name"/>
                </compoundIndex>
            </compoundIndexes>
        </entity>
        <entity name="Note" representedClassName="Note" syncable="YES" codeGenerationType="class">
            <attribute name="text" optional="YES" attributeType="String"/>
            <attribute name="cached" optional="YES" transient="YES" attributeType="Undefined"/>
            <attribute name="length" optional="YES" attributeType="Integer 64" derived="YES" derivationExpression="length:(text)" usesScalarValueType="YES"/>
            <relationship name="person" optional="YES" maxCount="1" deletionRule="No Action" destinationEntity="Person" inverseName="notes" inverseEntity="Person"/>
            <fetchIndex name="byTextIndex">
                <fetchIndexElement property="text" type="Binary" order="descending"/>
            </fetchIndex>
        </entity>
        <fetchRequest name="richEmployees" entity="Employee" predicateString="salary &gt; $minimum AND name BEGINSWITH[cd] &quot;a&quot;" fetchLimit="20"/>
        <configuration name="Cloud" usedWithCloudKit="YES">
            <memberEntity name="Person"/>
            <memberEntity name="Note"/>
        </configuration>
    """)

    /// The same model in Quarry's YAML.
    static let inheritanceYAML = """
        entities:
          Person:
            abstract: true
            attributes:
              name: { type: string, optional: false, min: 1, max: 80 }
              email: { type: string, regex: '[^@]+@[^@]+' }
              identifier: uuid
            relationships:
              notes: { to: Note, many: true, ordered: true, min: 1, max: 10, inverse: person, delete: cascade }
            userInfo: { table: people }
          Employee:
            parent: Person
            attributes:
              salary: { type: integer64, default: 0 }
              badge: { type: integer32, indexed: true }
            fetchedProperties:
              colleagues: { entity: Employee, predicate: "salary >= $FETCH_SOURCE.salary AND self != $FETCH_SOURCE" }
            unique: [[name, email]]
          Customer:
            parent: Person
            attributes:
              since: { type: date, min: 0, max: 1000000000 }
            indexes: [[since, name]]
          Note:
            attributes:
              text: string
              cached: { type: undefined, transient: true }
              length: { type: integer64, derived: "length:(text)" }
            relationships:
              person: { to: Person, delete: noAction }
            indexes:
              byTextIndex: [text desc]
        fetchRequests:
          richEmployees: { entity: Employee, predicate: "salary > $minimum AND name BEGINSWITH[cd] 'a'", limit: 20 }
        configurations:
          Cloud: [Person, Note]
        """
}
