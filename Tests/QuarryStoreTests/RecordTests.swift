// Typed records: fetched objects decoded into Decodable types (to-ones as
// nested records, to-manys as arrays), records inserted and updated from
// Encodable ones — on every engine — and the refusals: a misspelt key (even
// of an optional property) with a "did you mean", a value that does not fit
// the property's type, a nested value written as an attribute.
import Foundation
import Testing
@testable import QuarryStore

@Suite("Typed records", .serialized)
struct RecordTests {
    struct DepartmentRecord: Codable, Equatable { var name: String; var budget: Decimal? }
    struct EmployeeRecord: Codable, Equatable {
        var name: String
        var salary: Int
        var age: Int16?
        var startDate: Date?
        var active: Bool
        var email: String?
        var department: DepartmentRecord?
    }
    struct DepartmentWithStaff: Decodable { var name: String; var employees: [Name] }
    struct Name: Decodable, Hashable { var name: String }
    struct Misspelt: Decodable { var name: String; var salery: Int? }
    struct TooSmall: Decodable { var salary: Int8 }
    struct NewEmployee: Encodable { var name: String; var salary: Int64; var startDate: Date; var email: String? }
    struct WithNested: Encodable { var name: String; var department: DepartmentRecord }
    struct Unknown: Encodable { var name: String; var nickname: String }

    static let start = Date(timeIntervalSinceReferenceDate: 600_000_000)

    func context(_ engine: TestEngine) throws -> Context {
        let store = try engine.emptyStore(model: try ModelReader.read(from: Fixture.modelPath))
        let context = Context(store: store)
        let sales = try context.insert("Department")
        try sales.setValue("Sales", forKey: "name")
        try sales.setValue(.decimal(Decimal(string: "1234.5")!), forKey: "budget")
        for (name, salary, age) in [("Ann", 90_000, 41), ("Bo", 120, 30)] as [(String, Int64, Int64)] {
            let e = try context.insert("Employee")
            try e.setValue(.string(name), forKey: "name")
            try e.setValue(.int(salary), forKey: "salary")
            try e.setValue(.int(age), forKey: "age")
            try e.setValue(.object(ObjectReference(sales)), forKey: "department")
        }
        let loner = try context.insert("Employee")
        try loner.setValue("Cy", forKey: "name")
        try loner.setValue(Value(Self.start), forKey: "startDate")
        try context.save()
        return context
    }

    static var sortedByName: FetchRequest {
        FetchRequest(entity: "Employee", sortDescriptors: [QuerySortDescriptor("name")])
    }

    @Test(arguments: TestEngine.available)
    func objectsDecodeWithTheirToOnesAsNestedRecords(engine: TestEngine) throws {
        let context = try context(engine)
        let sales = DepartmentRecord(name: "Sales", budget: Decimal(string: "1234.5"))
        let expected = [
            EmployeeRecord(name: "Ann", salary: 90_000, age: 41, startDate: nil, active: true, email: nil, department: sales),
            EmployeeRecord(name: "Bo", salary: 120, age: 30, startDate: nil, active: true, email: nil, department: sales),
            EmployeeRecord(name: "Cy", salary: 50_000, age: nil, startDate: Self.start, active: true, email: nil, department: nil),
        ]
        #expect(try context.fetch(Self.sortedByName, as: EmployeeRecord.self) == expected)
        #expect(try context.fetch(Self.sortedByName, as: EmployeeRecord.self, engine: .memory) == expected)
        #expect(try context.store.fetch(Self.sortedByName, as: EmployeeRecord.self) == expected)
        let staff = try context.fetch(FetchRequest(entity: "Department"), as: DepartmentWithStaff.self)
        #expect(staff.count == 1 && Set(staff[0].employees) == [Name(name: "Ann"), Name(name: "Bo")])
    }

    @Test(arguments: TestEngine.available)
    func aMisspeltKeyIsRefusedEvenForAnOptionalProperty(engine: TestEngine) throws {
        let context = try context(engine)
        #expect(throws: ContextError.unknownKey("salery", entity: "Employee", suggestion: "salary")) {
            try context.fetch(Self.sortedByName, as: Misspelt.self)
        }
    }

    @Test(arguments: TestEngine.available)
    func aValueThatDoesNotFitIsAnErrorNotTruncated(engine: TestEngine) throws {
        let context = try context(engine)
        #expect(throws: DecodingError.self) { try context.fetch(Self.sortedByName, as: TooSmall.self) }
    }

    @Test(arguments: TestEngine.available)
    func recordsInsertAndUpdate(engine: TestEngine) throws {
        let context = try context(engine)
        let dee = try context.insert("Employee", from: NewEmployee(name: "Dee", salary: 70_000, startDate: Self.start, email: "dee@example.com"))
        try context.save()
        var request = FetchRequest(entity: "Employee", predicate: try Parser.parsePredicate("name == 'Dee'"))
        var read = try context.fetch(request, as: EmployeeRecord.self)
        #expect(read == [EmployeeRecord(name: "Dee", salary: 70_000, age: nil, startDate: Self.start, active: true,
                                        email: "dee@example.com", department: nil)])
        try dee.update(from: NewEmployee(name: "Dee", salary: 71_000, startDate: Self.start, email: nil))
        try context.save()
        read = try Context(store: context.store).fetch(request, as: EmployeeRecord.self)
        #expect(read.first?.salary == 71_000 && read.first?.email == nil)
        #expect {
            try context.insert("Employee", from: Unknown(name: "Eve", nickname: "E"))
        } throws: { error in
            guard case ContextError.unknownKey("nickname", entity: "Employee", _)? = error as? ContextError else { return false }
            return true
        }
        #expect(throws: EncodingError.self) {
            try context.insert("Employee", from: WithNested(name: "Eve", department: DepartmentRecord(name: "X", budget: nil)))
        }
        #expect(context.insertedObjects.isEmpty, "a refused record inserts nothing")
    }
}
