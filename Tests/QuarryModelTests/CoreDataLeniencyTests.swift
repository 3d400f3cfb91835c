// What the Core Data XML reader makes of text that is not a value of the
// attribute's type, and of inverses that do not point back — the things
// Xcode writes and Core Data's model compiler accepts (see
// AttributeValues+CoreData.swift and XMLModelReader+Inverses.swift). Each
// odd form is read, and leaves a warning placed in the file; Quarry's own
// YAML format stays strict about the same text.
import Foundation
import QuarrySyntax
import Testing
@testable import QuarryModel

struct LenientCase: Sendable, CustomStringConvertible {
    var type: String
    /// The XML attributes after attributeType, e.g. `defaultValueString="0.0"`.
    var xml: String
    var defaultValue: Value?
    var minimum: Value? = nil
    var maximum: Value? = nil
    /// Whether the reader says it converted or ignored something.
    var warns: Bool
    var description: String { "\(type) \(xml)" }
}

let lenientCases: [LenientCase] = [
    // An Integer once a Double or a Boolean keeps its old default text.
    LenientCase(type: "Integer 16", xml: #"defaultValueString="0.0""#, defaultValue: .int(0), warns: true),
    LenientCase(type: "Integer 32", xml: #"defaultValueString="YES""#, defaultValue: .int(1), warns: true),
    LenientCase(type: "Integer 64", xml: #"defaultValueString="NO""#, defaultValue: .int(0), warns: true),
    LenientCase(type: "Integer 16", xml: #"defaultValueString="2.9""#, defaultValue: .int(2), warns: true),
    LenientCase(type: "Integer 16", xml: #"defaultValueString="-2.9""#, defaultValue: .int(-2), warns: true),
    LenientCase(type: "Integer 16", xml: #"defaultValueString="40000""#, defaultValue: .int(32767), warns: true),
    LenientCase(type: "Integer 32", xml: #"defaultValueString="-1e12""#, defaultValue: .int(-2_147_483_648), warns: true),
    LenientCase(type: "Integer 32", xml: #"defaultValueString="many""#, defaultValue: nil, warns: true),
    LenientCase(type: "Integer 32", xml: #"defaultValueString="12""#, defaultValue: .int(12), warns: false),
    // A Boolean once an Integer or a Double: Foundation's boolValue.
    LenientCase(type: "Boolean", xml: #"defaultValueString="100""#, defaultValue: .bool(true), warns: true),
    LenientCase(type: "Boolean", xml: #"defaultValueString="0.0""#, defaultValue: .bool(false), warns: true),
    LenientCase(type: "Boolean", xml: #"defaultValueString="-0""#, defaultValue: .bool(false), warns: true),
    LenientCase(type: "Boolean", xml: #"defaultValueString="Tru""#, defaultValue: .bool(true), warns: true),
    LenientCase(type: "Boolean", xml: #"defaultValueString="nope""#, defaultValue: .bool(false), warns: true),
    LenientCase(type: "Boolean", xml: #"defaultValueString="YES""#, defaultValue: .bool(true), warns: false),
    // A Double once a Boolean.
    LenientCase(type: "Double", xml: #"defaultValueString="YES""#, defaultValue: .double(1), warns: true),
    LenientCase(type: "Decimal", xml: #"defaultValueString="NO""#, defaultValue: .decimal(0), warns: true),
    LenientCase(type: "Float", xml: #"defaultValueString="fast""#, defaultValue: nil, warns: true),
    // Text that is no value of the type: no default.
    LenientCase(type: "UUID", xml: #"defaultValueString="empty""#, defaultValue: nil, warns: true),
    LenientCase(type: "Transformable", xml: #"defaultValueString="x""#, defaultValue: nil, warns: true),
    LenientCase(type: "Binary", xml: #"defaultValueString="%%%""#, defaultValue: nil, warns: true),
    // Bounds: clamped to the type's range, or ignored where the type has none.
    LenientCase(type: "Integer 32", xml: #"maxValueString="99999999999""#, defaultValue: nil, maximum: .int(2_147_483_647), warns: true),
    LenientCase(type: "Integer 16", xml: #"minValueString="-1e6""#, defaultValue: nil, minimum: .int(-32768), warns: true),
    LenientCase(type: "Integer 16", xml: #"minValueString="0.0" maxValueString="10""#, defaultValue: nil,
                minimum: .int(0), maximum: .int(10), warns: true),
    LenientCase(type: "String", xml: #"maxValueString="-1""#, defaultValue: nil, warns: true),
    LenientCase(type: "String", xml: #"maxValueString="20.0""#, defaultValue: nil, maximum: .int(20), warns: true),
    LenientCase(type: "Boolean", xml: #"maxValueString="1""#, defaultValue: nil, warns: true),
    LenientCase(type: "Double", xml: #"minValueString="low""#, defaultValue: nil, warns: true),
    LenientCase(type: "Integer 16", xml: #"minValueString="1" maxValueString="9""#, defaultValue: nil,
                minimum: .int(1), maximum: .int(9), warns: false),
    // A String turned Integer keeps its pattern: never matched, so ignored.
    LenientCase(type: "Integer 32", xml: #"regularExpressionString="[0-9]+""#, defaultValue: nil, warns: true),
]

@Suite struct CoreDataLeniencyTests {
    func read(_ body: String) throws -> Model {
        try ModelReader.read(xml: Fixtures.xml(body), file: "contents")
    }

    @Test(arguments: lenientCases)
    func oddDefaultsAndBounds(_ c: LenientCase) throws {
        let model = try read("""
            <entity name="E" representedClassName="E" syncable="YES">
                <attribute name="a" optional="YES" attributeType="\(c.type)" \(c.xml)/>
            </entity>
        """)
        let a = try #require(model.entity(named: "E")?.attributes.first)
        #expect(a.defaultValue == c.defaultValue)
        #expect(a.minimum == c.minimum)
        #expect(a.maximum == c.maximum)
        #expect(model.warnings.isEmpty == !c.warns, "\(model.warnings)")
        for w in model.warnings {
            #expect(w.kind == .invalidValue)
            #expect(w.line == 4, "the warning points at the attribute's line: \(w)")
            #expect(w.column != nil)
            #expect(w.description.hasPrefix("contents:4:"))
            #expect(w.message.contains("attribute 'a' of E"))
        }
    }

    /// Quarry's YAML is its own format, not Xcode's: there `0.0` for an
    /// integer is still a mistake.
    @Test func yamlStaysStrict() {
        #expect(throws: ModelError.self) {
            try ModelReader.read(yaml: "entities:\n  E:\n    attributes:\n      a: { type: integer16, default: 0.0 }\n")
        }
    }

    /// A.r names B.s as its inverse, but B.s and A.t name each other: the
    /// pair that agrees is kept, r is read without an inverse.
    @Test func aOneSidedInverseIsDropped() throws {
        let model = try read("""
            <entity name="A" representedClassName="A" syncable="YES">
                <relationship name="r" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="B" inverseName="s" inverseEntity="B"/>
                <relationship name="t" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="B" inverseName="s" inverseEntity="B"/>
            </entity>
            <entity name="B" representedClassName="B" syncable="YES">
                <relationship name="s" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="A" inverseName="t" inverseEntity="A"/>
            </entity>
        """)
        let a = try #require(model.entity(named: "A"))
        #expect(a.relationships.map(\.inverse) == [nil, "s"])
        #expect(model.entity(named: "B")?.relationships.first?.inverse == "t")
        #expect(model.warnings.count == 1)
        let w = try #require(model.warnings.first)
        #expect(w.kind == .inverseMismatch)
        #expect(w.line == 4)
        #expect(w.message.contains("relationship 'r' of A"))
        #expect(w.message.contains("names 't' as its inverse"))
    }

    @Test func anInverseThatNamesNoInverseIsDropped() throws {
        let model = try read("""
            <entity name="A" representedClassName="A" syncable="YES">
                <relationship name="r" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="B" inverseName="s" inverseEntity="B"/>
            </entity>
            <entity name="B" representedClassName="B" syncable="YES">
                <relationship name="s" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="A"/>
            </entity>
        """)
        #expect(model.entity(named: "A")?.relationships.first?.inverse == nil)
        #expect(model.warnings.map(\.kind) == [.inverseMismatch])
    }

    /// An inverse that names nothing is a defect momc refuses: still an error.
    @Test func anUnknownInverseIsStillRefused() {
        #expect {
            try read("""
                <entity name="A" representedClassName="A" syncable="YES">
                    <relationship name="r" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="B" inverseName="nothing" inverseEntity="B"/>
                </entity>
                <entity name="B" representedClassName="B" syncable="YES">
                    <relationship name="s" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="A" inverseName="r" inverseEntity="A"/>
                </entity>
            """)
        } throws: { error in
            (error as? ModelError)?.kind == .unknownProperty
        }
    }

    /// Models built in code are not read from Xcode's files: no leniency.
    @Test func modelsInCodeStayStrict() {
        let model = Model(entities: [
            Entity(name: "A", relationships: [Relationship(name: "r", destination: "B", inverse: "s")]),
            Entity(name: "B", relationships: [Relationship(name: "s", destination: "A")]),
        ])
        #expect(model.validationErrors().map(\.kind) == [.inverseMismatch])
    }

    /// Foundation's -[NSString boolValue], which momc applies to Boolean defaults.
    @Test(arguments: [("YES", true), ("no", false), ("  7", true), ("+0001", true), ("-0", false), ("0.5", false),
                      ("t", true), ("y", true), ("", false), ("x", false), ("00", false)])
    func foundationBool(_ text: String, _ expected: Bool) {
        #expect(AttributeValues.foundationBool(text) == expected)
    }
}

@Suite struct CoreDataIndexLeniencyTests {
    /// An index element on a to-many has no column: left out, with a
    /// warning; the index's other elements stay.
    @Test func aToManyIndexElementIsLeftOut() throws {
        let model = try ModelReader.read(xml: Fixtures.xml("""
            <entity name="A" representedClassName="A" syncable="YES">
                <attribute name="date" optional="YES" attributeType="Date"/>
                <relationship name="bs" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="B" inverseName="a" inverseEntity="B"/>
                <fetchIndex name="byValue">
                    <fetchIndexElement property="bs" type="Binary" order="ascending"/>
                </fetchIndex>
                <fetchIndex name="byDateAndValue">
                    <fetchIndexElement property="date" type="Binary" order="ascending"/>
                    <fetchIndexElement property="bs" type="Binary" order="ascending"/>
                </fetchIndex>
            </entity>
            <entity name="B" representedClassName="B" syncable="YES">
                <relationship name="a" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="A" inverseName="bs" inverseEntity="A"/>
            </entity>
        """), file: "contents")
        let a = try #require(model.entity(named: "A"))
        #expect(a.fetchIndexes == [FetchIndex(name: "byDateAndValue", elements: [FetchIndexElement(property: "date")])])
        #expect(model.warnings.map(\.line) == [7, 11])
        #expect(model.warnings.allSatisfy { $0.message.contains("'bs' is a to-many relationship") })
    }

    /// A uniqueness constraint on a to-many is refused by momc too.
    @Test func aToManyUniquenessConstraintIsStillRefused() {
        #expect(throws: ModelError.self) {
            try ModelReader.read(xml: Fixtures.xml("""
                <entity name="A" representedClassName="A" syncable="YES">
                    <relationship name="bs" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="A"/>
                    <uniquenessConstraints>
                        <uniquenessConstraint>
                            <constraint value="bs"/>
                        </uniquenessConstraint>
                    </uniquenessConstraints>
                </entity>
            """))
        }
    }
}

/// Whatever odd text a model file holds, the lenient reading never crashes
/// and never yields a value that validation would then refuse: a model that
/// momc compiles always loads.
@Suite struct CoreDataLeniencyInvariantTests {
    static let texts = ["", " ", "0", "-0", "+7", "0.0", "2.5", "-2.5", "1e400", "-1e400", "nan", "inf", "YES", "no", "t",
                        "abc", "99999999999999999999", "-99999999999999999999", "9223372036854775807",
                        "9223372036854775808", "-9223372036854775809", "0x10", "  12  ", "√2", "\u{0}", "1,5"]

    @Test(arguments: AttributeType.allCases)
    func defaultsAlwaysFitTheType(_ type: AttributeType) {
        for text in Self.texts {
            switch AttributeValues.coreDataDefault(text, for: type) {
            case .exact(let v), .converted(let v, _):
                #expect(type.acceptsDefault(v), "\(type.rawValue) default '\(text)' read as \(v), which validation refuses")
            case .ignored(let note):
                #expect(!note.isEmpty)
            }
        }
    }

    @Test(arguments: AttributeType.allCases)
    func boundsAlwaysFitTheType(_ type: AttributeType) {
        for text in Self.texts {
            switch AttributeValues.coreDataBound(text, for: type) {
            case .exact(let v), .converted(let v, _):
                #expect(type.acceptsBound(v), "\(type.rawValue) bound '\(text)' read as \(v), which validation refuses")
            case .ignored(let note):
                #expect(!note.isEmpty)
            }
        }
    }
}
