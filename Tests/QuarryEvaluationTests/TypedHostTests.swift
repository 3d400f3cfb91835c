// `Evaluator.compile(_:for:)` over host types with typed accessors: every
// predicate must answer exactly as the general `compile(_:)` does — on objects
// of the class (typed reads), on nil properties and nil relations, through
// relation chains, on keys without an accessor, on other host types and on
// dictionaries (the general tree) — raise the same errors, and actually use
// the accessors.
import Testing
@testable import QuarryEvaluation

/// A typed host: every key has an accessor except `nickname`.
final class Staff: TypedKeyValueAccessible, @unchecked Sendable {
    let name: String?
    let age: Int
    let score: Double?
    let active: Bool
    let team: Team?
    let tags: [String]
    let nickname: String
    /// How many times a typed accessor read `age` (to see the typed path run).
    var ageReads = 0

    init(_ name: String?, age: Int, score: Double?, active: Bool, team: Team?, tags: [String] = [], nickname: String = "") {
        self.name = name; self.age = age; self.score = score; self.active = active
        self.team = team; self.tags = tags; self.nickname = nickname
    }

    func value(forKey key: String) -> Value? {
        switch key {
        case "name": return name.map(Value.string) ?? .null
        case "age": return .int(Int64(age))
        case "score": return score.map(Value.double) ?? .null
        case "active": return .bool(active)
        case "team": return team.map { .object(ObjectReference($0)) } ?? .null
        case "tags": return .array(tags.map(Value.string))
        case "nickname": return .string(nickname)
        default: return nil
        }
    }

    static func accessor(forKey key: String) -> KeyAccessor<Staff>? {
        switch key {
        case "name": return .string { $0.name }
        case "age": return .int { (s: Staff) -> Int? in
                s.ageReads += 1
                return s.age
            }
        case "score": return .double { $0.score }
        case "active": return .bool { $0.active }
        case "team": return .object { $0.team }
        case "tags": return .value { .array($0.tags.map(Value.string)) }
        default: return nil
        }
    }
}

/// A related typed host, with a relation to itself and an Int64 key.
final class Team: TypedKeyValueAccessible, @unchecked Sendable {
    let title: String
    let budget: Int64?
    let parent: Team?

    init(_ title: String, budget: Int64?, parent: Team? = nil) {
        self.title = title; self.budget = budget; self.parent = parent
    }

    func value(forKey key: String) -> Value? {
        switch key {
        case "title": return .string(title)
        case "budget": return budget.map(Value.int) ?? .null
        case "parent": return parent.map { .object(ObjectReference($0)) } ?? .null
        default: return nil
        }
    }

    static func accessor(forKey key: String) -> KeyAccessor<Team>? {
        switch key {
        case "title": return .string { $0.title }
        case "budget": return .int { $0.budget }
        case "parent": return .object { $0.parent }
        default: return nil
        }
    }
}

@Suite("Typed host objects")
struct TypedHostTests {
    static let root = Team("Zentrale", budget: 900)
    static let sales = Team("Sales", budget: 120, parent: root)
    static let labs = Team("Labs", budget: nil)

    /// Objects of the class, with nil names, scores and teams; another host
    /// type answering the same keys; a dictionary; null.
    static let objects: [Value] = [
        .object(ObjectReference(Staff("José", age: 41, score: 7.5, active: true, team: sales, tags: ["a", "b"], nickname: "Pepe"))),
        .object(ObjectReference(Staff("zoë", age: 29, score: nil, active: false, team: labs))),
        .object(ObjectReference(Staff(nil, age: 65, score: 3, active: true, team: nil, tags: ["ab"]))),
        .object(ObjectReference(Staff("Jörg", age: 50, score: 50, active: false, team: root, nickname: "J"))),
        .object(ObjectReference(Person(["name": .string("Joanna"), "age": .int(33), "team": .null]))),
        .dictionary(["name": .string("John"), "age": .double(41.0), "score": .int(8),
                     "team": .dictionary(["title": .string("Sales"), "budget": .int(5)])]),
        .null,
    ]

    static let predicates: [String] = [
        "name == 'José'", "name != 'José'", "name == nil", "name != nil",
        "name BEGINSWITH[cd] 'jo'", "name BEGINSWITH 'Jo'", "name ENDSWITH[d] 'e'", "name CONTAINS[c] 'Ö'",
        "name ==[cd] 'JOSE'", "name !=[c] 'JOSÉ'", "name LIKE[c] 'j*'", "name MATCHES '.*ö.*'", "name IN {'zoë', 'Jörg'}",
        "age == 41", "age != 41", "age < 41", "age <= 41", "age > 41", "age >= 50", "age == 41.0", "age > 40.5",
        "age BETWEEN {30, 50}", "age IN {29, 65}", "age == '41'",
        "score < 7.5", "score >= 3.0", "score > 5", "score == nil", "score == 7.5",
        "active == YES", "active == NO", "active == 1",
        "team.title == 'Sales'", "team.title BEGINSWITH[c] 's'", "team.budget > 100", "team.budget == nil",
        "team.parent.title == 'Zentrale'", "team.parent.budget >= 900", "team.parent.parent.title == nil",
        "team == nil", "team != nil", "team.parent == nil",
        "nickname == 'Pepe'", "nickname BEGINSWITH 'J'",
        "ANY tags == 'a'", "tags CONTAINS 'ab'", "tags.@count >= 1",
        "NOT (age > 40)", "age > 40 AND team.title == 'Sales'", "age > 40 OR name == 'zoë'",
        "age > 60 OR team.budget < 200 OR name BEGINSWITH 'J'", "TRUEPREDICATE AND age > 30", "FALSEPREDICATE OR age < 30",
        "age > 30 AND FALSEPREDICATE", "SUBQUERY(tags, $t, $t BEGINSWITH 'a').@count > 1", "age > $min",
        "age > 20 AND team.title BEGINSWITH 'S' AND score > 1.0 AND name != nil",
        "age > 20 AND ANY tags == 'a' AND age < $min AND team.budget > 100",
        "name CONTAINS 'o' AND age + 0 > 30 AND TRUEPREDICATE AND team.parent.title == 'Zentrale'",
        "age + 1 > 42", "name.length > 3",
        // A part that raises does not decide a junction another part decides.
        "CAST(name, 'NSNumber') == 1 AND age > 60", "CAST(name, 'NSNumber') == 1 OR age > 60",
        "age > 30 AND CAST(name, 'NSNumber') == 1 AND name BEGINSWITH 'Z'",
    ]

    @Test(arguments: predicates)
    func typedAnswersAsTheGeneralPath(_ format: String) throws {
        let p = try Parser.parsePredicate(format)
        let general = try Evaluator.compile(p)
        let typed = try Evaluator.compile(p, for: Staff.self)
        for (i, o) in Self.objects.enumerated() {
            let expected = Result { () throws(Diagnostic) -> Bool in try general.evaluate(o, variables: ["min": .int(40)]) }
            let got = Result { () throws(Diagnostic) -> Bool in try typed.evaluate(o, variables: ["min": .int(40)]) }
            switch (expected, got) {
            case (.success(let a), .success(let b)): #expect(a == b, "\(format) on object \(i)")
            case (.failure(let a), .failure(let b)):
                #expect(a.code == b.code && a.span == b.span, "\(format) on object \(i): \(a) vs \(b)")
            default: Issue.record("\(format) on object \(i): \(expected) vs \(got)")
            }
        }
    }

    /// Hand-written answers for the first object (José, 41, Sales under
    /// Zentrale), so that the comparison above is not only self-consistency.
    static let answers: [(String, Bool)] = [
        ("name BEGINSWITH[cd] 'jo'", true), ("name == 'Jose'", false), ("age == 41", true), ("age > 41", false),
        ("age == 41.0", true), ("score < 7.5", false), ("score <= 7.5", true), ("active == YES", true),
        ("team.title == 'Sales'", true), ("team.parent.title == 'Zentrale'", true), ("team.parent.budget > 900", false),
        ("team.parent.parent.title == nil", true), ("nickname == 'Pepe'", true), ("name ==[cd] 'JOSE'", true),
        ("age > 40 AND team.budget < 100", false),
    ]

    @Test(arguments: answers)
    func typedAnswersAreRight(_ format: String, _ expected: Bool) throws {
        let typed = try Evaluator.compile(try Parser.parsePredicate(format), for: Staff.self)
        #expect(try typed.evaluate(Self.objects[0]) == expected)
        #expect(try typed.filter([Self.objects[0]]).count == (expected ? 1 : 0))
    }

    @Test func theTypedPathReadsThroughTheAccessors() throws {
        let staff = Staff("Ann", age: 30, score: nil, active: true, team: nil)
        let p = try Parser.parsePredicate("age > 20")
        _ = try Evaluator.compile(p).evaluate(.object(ObjectReference(staff)))
        #expect(staff.ageReads == 0)
        _ = try Evaluator.compile(p, for: Staff.self).evaluate(.object(ObjectReference(staff)))
        #expect(staff.ageReads == 1)
    }

    @Test func objectsOfAnotherClassTakeTheGeneralPath() throws {
        let p = try Evaluator.compile(try Parser.parsePredicate("title == 'Sales' AND budget > 100"), for: Staff.self)
        #expect(try p.evaluate(.object(ObjectReference(Self.sales))) == true)
        #expect(try p.evaluate(.object(ObjectReference(Self.labs))) == false)
    }

    @Test(arguments: ["name MATCHES '('", "age > 1 AND name.@nope == 1", "age > 1 AND tags.@sum == 1"])
    func compileErrorsAreTheGeneralOnes(_ format: String) throws {
        let p = try Parser.parsePredicate(format)
        var general: Diagnostic?
        do throws(Diagnostic) { _ = try Evaluator.compile(p) } catch { general = error }
        var typed: Diagnostic?
        do throws(Diagnostic) { _ = try Evaluator.compile(p, for: Staff.self) } catch { typed = error }
        #expect(general != nil)
        #expect(typed?.code == general?.code && typed?.span == general?.span)
    }

    @Test func evaluationErrorsAreTheGeneralOnes() throws {
        let p = try Parser.parsePredicate("age > 1 AND age.foo == 1")
        var general: Diagnostic?
        do throws(Diagnostic) { _ = try Evaluator.compile(p).evaluate(Self.objects[0]) } catch let e { general = e }
        var typed: Diagnostic?
        do throws(Diagnostic) { _ = try Evaluator.compile(p, for: Staff.self).evaluate(Self.objects[0]) } catch let e { typed = e }
        #expect(general?.code == .unknownKey)
        #expect(typed?.code == .unknownKey && typed?.span == general?.span)
    }

    @Test func aConstantPredicateStaysConstant() throws {
        let p = try Evaluator.compile(try Parser.parsePredicate("TRUEPREDICATE OR age > 3"), for: Staff.self)
        #expect(p.constantValue == true)
        #expect(try p.evaluate(.null) == true)
    }
}
