// Each attribute type and option, read from Quarry's YAML and from Core
// Data XML, must give the same Attribute.
import Foundation
import QuarrySyntax
import Testing
@testable import QuarryModel

struct TypeCase: Sendable, CustomStringConvertible {
    var yamlType: String
    var xmlType: String
    var type: AttributeType
    var yamlDefault: String
    var xmlDefault: String   // the XML attribute, name="value"
    var value: Value
    var description: String { xmlType }
}

let typeCases: [TypeCase] = [
    TypeCase(yamlType: "integer16", xmlType: "Integer 16", type: .integer16, yamlDefault: "7", xmlDefault: #"defaultValueString="7""#, value: .int(7)),
    TypeCase(yamlType: "integer32", xmlType: "Integer 32", type: .integer32, yamlDefault: "-40000", xmlDefault: #"defaultValueString="-40000""#, value: .int(-40000)),
    TypeCase(yamlType: "integer64", xmlType: "Integer 64", type: .integer64, yamlDefault: "9000000000", xmlDefault: #"defaultValueString="9000000000""#, value: .int(9_000_000_000)),
    TypeCase(yamlType: "double", xmlType: "Double", type: .double, yamlDefault: "2.5", xmlDefault: #"defaultValueString="2.5""#, value: .double(2.5)),
    TypeCase(yamlType: "float", xmlType: "Float", type: .float, yamlDefault: "1.5", xmlDefault: #"defaultValueString="1.5""#, value: .double(1.5)),
    TypeCase(yamlType: "decimal", xmlType: "Decimal", type: .decimal, yamlDefault: "19.99", xmlDefault: #"defaultValueString="19.99""#, value: .decimal(Decimal(string: "19.99")!)),
    TypeCase(yamlType: "string", xmlType: "String", type: .string, yamlDefault: "'it''s'", xmlDefault: #"defaultValueString="it's""#, value: .string("it's")),
    TypeCase(yamlType: "boolean", xmlType: "Boolean", type: .boolean, yamlDefault: "true", xmlDefault: #"defaultValueString="YES""#, value: .bool(true)),
    // Dates: YAML takes ISO 8601; Xcode writes seconds since 2001 in its own attribute.
    TypeCase(yamlType: "date", xmlType: "Date", type: .date, yamlDefault: "2001-01-02", xmlDefault: #"defaultDateTimeInterval="86400""#, value: .date(86400)),
    TypeCase(yamlType: "binary", xmlType: "Binary", type: .binary, yamlDefault: "AAEC", xmlDefault: #"defaultValueString="AAEC""#, value: .data([0, 1, 2])),
    TypeCase(yamlType: "uuid", xmlType: "UUID", type: .uuid, yamlDefault: "6F9619FF-8B86-D011-B42D-00C04FC964FF", xmlDefault: #"defaultValueString="6F9619FF-8B86-D011-B42D-00C04FC964FF""#, value: .uuid(UUID(uuidString: "6F9619FF-8B86-D011-B42D-00C04FC964FF")!)),
    TypeCase(yamlType: "uri", xmlType: "URI", type: .uri, yamlDefault: "https://example.com/a", xmlDefault: #"defaultValueString="https://example.com/a""#, value: .string("https://example.com/a")),
]

@Suite struct AttributeReadingTests {
    func yamlAttribute(_ body: String) throws -> Attribute {
        let model = try ModelReader.read(yaml: "entities:\n  E:\n    attributes:\n      a: \(body)\n")
        return try #require(model.entity(named: "E")?.attributes.first)
    }

    func xmlAttribute(_ attributes: String) throws -> Attribute {
        let model = try ModelReader.read(xml: Fixtures.xml("""
            <entity name="E" representedClassName="E" syncable="YES">
                <attribute name="a" \(attributes)/>
            </entity>
        """))
        return try #require(model.entity(named: "E")?.attributes.first)
    }

    @Test(arguments: typeCases)
    func typeAndDefaultFromYAML(_ c: TypeCase) throws {
        let a = try yamlAttribute("{ type: \(c.yamlType), default: \(c.yamlDefault) }")
        #expect(a.type == c.type)
        #expect(a.defaultValue == c.value)
        #expect(a.isOptional)  // optional unless said otherwise, as in Core Data's API
    }

    @Test(arguments: typeCases)
    func typeAndDefaultFromXML(_ c: TypeCase) throws {
        let a = try xmlAttribute(#"optional="YES" attributeType="\#(c.xmlType)" \#(c.xmlDefault)"#)
        #expect(a.type == c.type)
        #expect(a.defaultValue == c.value)
        #expect(a.isOptional)
    }

    @Test(arguments: typeCases)
    func shorthandIsTheTypeAlone(_ c: TypeCase) throws {
        let a = try yamlAttribute(c.yamlType)
        #expect(a == Attribute(name: "a", type: c.type))
    }

    @Test(arguments: [("int16", AttributeType.integer16), ("Integer 64", .integer64), ("bool", .boolean),
                      ("data", .binary), ("url", .uri), ("UUID", .uuid), ("transformable", .transformable)])
    func typeAliases(_ text: String, _ type: AttributeType) throws {
        #expect(try yamlAttribute("{ type: '\(text)' }").type == type)
    }

    @Test func optionalMeansOppositeThingsWhenAbsent() throws {
        // YAML follows NSAttributeDescription (optional by default); Xcode's
        // XML writes optional="YES" only for optional attributes.
        #expect(try yamlAttribute("string").isOptional == true)
        #expect(try yamlAttribute("{ type: string, optional: false }").isOptional == false)
        #expect(try xmlAttribute(#"attributeType="String""#).isOptional == false)
        #expect(try xmlAttribute(#"optional="YES" attributeType="String""#).isOptional == true)
    }

    @Test func numericBounds() throws {
        let y = try yamlAttribute("{ type: integer16, min: 16, max: 120 }")
        let x = try xmlAttribute(#"optional="YES" attributeType="Integer 16" minValueString="16" maxValueString="120""#)
        #expect(y.minimum == .int(16) && y.maximum == .int(120))
        #expect(y == x)
        let d = try yamlAttribute("{ type: double, min: -0.5, max: 1e3 }")
        #expect(d.minimum == .double(-0.5) && d.maximum == .double(1000))
    }

    @Test func stringBoundsAreLengths() throws {
        let y = try yamlAttribute("{ type: string, min: 2, max: 64 }")
        let x = try xmlAttribute(#"optional="YES" attributeType="String" minValueString="2" maxValueString="64""#)
        #expect(y.minimum == .int(2) && y.maximum == .int(64))
        #expect(y == x)
    }

    @Test func dateBoundsAreInstants() throws {
        let y = try yamlAttribute("{ type: date, min: 2001-01-01T00:00:00Z, max: '2001-01-01T01:00:00Z' }")
        let x = try xmlAttribute(#"optional="YES" attributeType="Date" minDateTimeInterval="0" maxDateTimeInterval="3600""#)
        #expect(y.minimum == .date(0) && y.maximum == .date(3600))
        #expect(y == x)
    }

    @Test func regularExpression() throws {
        let y = try yamlAttribute(#"{ type: string, regex: '[A-Z]{2}\d+' }"#)
        let x = try xmlAttribute(#"optional="YES" attributeType="String" regularExpressionString="[A-Z]{2}\d+""#)
        #expect(y.regularExpression == #"[A-Z]{2}\d+"#)
        #expect(y == x)
    }

    @Test func transientDerivedTransformableAndExternalStorage() throws {
        let t = try yamlAttribute("{ type: transformable, transformer: NSSecureUnarchiveFromData, transient: true }")
        #expect(t.type == .transformable && t.isTransient && t.valueTransformerName == "NSSecureUnarchiveFromData")
        let x = try xmlAttribute(#"optional="YES" transient="YES" attributeType="Transformable" valueTransformerName="NSSecureUnarchiveFromData""#)
        #expect(t == x)
        let b = try xmlAttribute(#"optional="YES" attributeType="Binary" allowsExternalBinaryDataStorage="YES""#)
        #expect(b.allowsExternalBinaryDataStorage)
        #expect(try yamlAttribute("{ type: binary, externalStorage: true }") == b)
        let d = try yamlAttribute(#"{ type: integer64, derived: "employees.@count" }"#)
        #expect(d.derivation == "employees.@count")
    }

    @Test func userInfo() throws {
        let y = try yamlAttribute("{ type: string, userInfo: { column: full_name } }")
        #expect(y.userInfo == ["column": "full_name"])
        let x = try ModelReader.read(xml: Fixtures.xml("""
            <entity name="E">
                <attribute name="a" optional="YES" attributeType="String">
                    <userInfo>
                        <entry key="column" value="full_name"/>
                    </userInfo>
                </attribute>
            </entity>
        """))
        #expect(x.entity(named: "E")?.attributes.first == y)
    }

    @Test func uniqueAndIndexedAttributesBecomeEntityConstraintsAndIndexes() throws {
        let model = try ModelReader.read(yaml: """
            entities:
              E:
                attributes:
                  code: { type: string, unique: true, indexed: true }
                  name: string
                indexes: [name, [name, code desc]]
                unique: [[name, code]]
            """)
        let e = try #require(model.entity(named: "E"))
        #expect(e.uniquenessConstraints == [UniquenessConstraint(["code"]), UniquenessConstraint(["name", "code"])])
        #expect(e.fetchIndexes.map(\.name) == ["byCodeIndex", "byNameIndex", "byNameCodeIndex"])
        #expect(e.fetchIndexes[2].elements == [FetchIndexElement(property: "name"),
                                               FetchIndexElement(property: "code", isAscending: false)])
    }

    @Test func indexElementsInMappingForm() throws {
        let model = try ModelReader.read(yaml: """
            entities:
              Place:
                attributes: { lat: double, lon: double }
                indexes:
                  byLocation:
                    - { property: lat, type: rtree }
                    - { property: lon, type: RTree, order: descending }
            """)
        let index = try #require(model.entity(named: "Place")?.fetchIndexes.first)
        #expect(index.name == "byLocation")
        #expect(index.elements == [FetchIndexElement(property: "lat", kind: .rTree),
                                   FetchIndexElement(property: "lon", kind: .rTree, isAscending: false)])
    }
}
