// Model shapes beyond the company model: sub-entities sharing one table (a
// to-one whose destination has sub-entities must find each row's real
// entity), one-to-one relationships (setting one side steals the partner),
// and to-many relationships without an inverse (join table, one side only).
import Foundation
import Testing
@testable import QuarryStore

@Suite("Context: inheritance, one-to-one, no inverse")
struct ContextModelShapesTests {
    static let model = Model(entities: [
        Entity(name: "Animal", isAbstract: true, attributes: [Attribute(name: "name", type: .string)],
               relationships: [Relationship(name: "owner", destination: "Owner", inverse: "pet")]),
        Entity(name: "Dog", parent: "Animal", attributes: [Attribute(name: "barks", type: .boolean)]),
        Entity(name: "Cat", parent: "Animal", attributes: [Attribute(name: "lives", type: .integer16, maximum: .int(9))]),
        Entity(name: "Owner", attributes: [Attribute(name: "name", type: .string)], relationships: [
            Relationship(name: "pet", destination: "Animal", inverse: "owner"),
            Relationship(name: "favourites", destination: "Animal", isToMany: true),
            Relationship(name: "mascot", destination: "Animal"),
        ]),
    ])

    @Test(arguments: TestEngine.available)
    func subEntitiesKeepTheirEntityThroughRelationships(engine: TestEngine) throws {
        let store = try engine.emptyStore(model: Self.model)
        let context = Context(store: store)
        #expect(throws: ContextError.abstractEntity("Animal", concrete: ["Dog", "Cat"])) { try context.insert("Animal") }
        let rex = try context.insert("Dog"), tom = try context.insert("Cat")
        try rex.setValue(.string("Rex"), forKey: "name")
        try tom.setValue(.string("Tom"), forKey: "name")
        try tom.setValue(.int(12), forKey: "lives")
        let ann = try context.insert("Owner")
        try ann.setValue(rex, forKey: "pet")
        try ann.add(tom, to: "favourites")
        try ann.add(rex, to: "favourites")
        try ann.setValue(tom, forKey: "mascot")
        let error = try #require(throws: ValidationError.self) { try context.save() }
        #expect(error.failures.map(\.description) == ["Cat.lives of \(tom.objectID) is greater than the maximum 9"])
        try tom.setValue(.int(9), forKey: "lives")
        try context.save()

        let fresh = Context(store: store)
        let owner = try #require(try fresh.fetch(FetchRequest(entity: "Owner")).first)
        let pet = try #require(owner.object(forKey: "pet"))
        #expect(pet.objectID == rex.objectID && pet.entity.name == "Dog")
        #expect(pet.object(forKey: "owner") === owner)
        // The row holds only the mascot's key; its entity (Cat) is looked up once.
        let loads = fresh.statistics.relationshipLoads
        #expect(owner.object(forKey: "mascot")?.objectID == tom.objectID)
        #expect(fresh.statistics.relationshipLoads == loads + 1)
        #expect(owner.objects(forKey: "favourites").map(\.entity.name).sorted() == ["Cat", "Dog"])
        // A fetch of the abstract entity returns both kinds.
        let animals = try fresh.fetch(FetchRequest(entity: "Animal", sortDescriptors: [QuerySortDescriptor("name")]))
        #expect(animals.map(\.entity.name) == ["Dog", "Cat"] && animals[0] === pet)
        #expect(animals[1]["lives"] == .int(9) && animals[0]["barks"] == .null)
    }

    @Test(arguments: TestEngine.available)
    func oneToOneStealsThePartner(engine: TestEngine) throws {
        let store = try engine.emptyStore(model: Self.model)
        let context = Context(store: store)
        let rex = try context.insert("Dog")
        let ann = try context.insert("Owner"), bob = try context.insert("Owner")
        try ann.setValue(rex, forKey: "pet")
        try bob.setValue(rex, forKey: "pet")
        #expect(ann.object(forKey: "pet") == nil && rex.object(forKey: "owner") === bob)
        try context.save()
        try rex.setValue(ann, forKey: "owner")
        #expect(bob.object(forKey: "pet") == nil && ann.object(forKey: "pet") === rex)
        try context.save()
        let fresh = Context(store: store)
        #expect(fresh.object(with: ann.objectID).object(forKey: "pet")?.objectID == rex.objectID)
        #expect(fresh.object(with: bob.objectID).object(forKey: "pet") == nil)
    }

    @Test(arguments: TestEngine.available)
    func deletingADestinationClearsLinksWithoutInverse(engine: TestEngine) throws {
        let store = try engine.emptyStore(model: Self.model)
        let context = Context(store: store)
        let rex = try context.insert("Dog"), tom = try context.insert("Cat")
        let ann = try context.insert("Owner")
        try ann.add(rex, to: "favourites")
        try ann.add(tom, to: "favourites")
        try context.save()
        try context.delete(tom)
        try context.save()
        let fresh = Context(store: store)
        #expect(fresh.object(with: ann.objectID).objects(forKey: "favourites").map(\.objectID) == [rex.objectID])
        #expect(try dump(store).filter { $0.hasPrefix("_Owner_favourites") }.count == 1)
    }
}
