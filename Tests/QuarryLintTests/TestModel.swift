// The model the snippet tests check against: departments and employees,
// with a to-many relationship, numbers, dates, a transient attribute and an
// index (Department.name).
import QuarryModel

enum TestModel {
    static let yaml = """
    entities:
      Department:
        attributes:
          name: { type: string, optional: false }
          budget: decimal
        indexes: [name]
        relationships:
          employees: { to: Employee, many: true, inverse: department }
      Employee:
        attributes:
          name: { type: string, optional: false }
          age: integer16
          salary: integer64
          startDate: date
          displayName: { type: string, transient: true }
        relationships:
          department: { to: Department, inverse: employees }
    fetchRequests:
      adults: { entity: Employee, predicate: "age >= 18" }
    """

    static let model: Model = try! ModelReader.read(yaml: yaml, file: "Test.yaml")
}
