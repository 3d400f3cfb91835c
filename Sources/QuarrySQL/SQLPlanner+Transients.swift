// Transient attributes in requests. A transient attribute lives only in a
// context's objects: it has no column, so SQL cannot test, sort or fetch it,
// and the objects a store reads hold no value for it. A request that needs
// one in SQL is refused with B007 naming the attribute (Core Data's SQLite
// store refuses it too: "keypath mood not found in entity"), rather than
// leaving the test to memory over rows that all read nil — a silent wrong
// answer. Requests that run in memory (the memory engine, a context's
// in-memory fetch) plan with `inMemory: true` and evaluate it there.
import QuarryModel

extension SQLPlanner {
    /// B007 for the first transient attribute the lowering met, if any.
    static func refuseTransients(_ context: LoweringContext) throws(Diagnostic) {
        guard let (entity, attribute) = context.transients.first else { return }
        throw transientError(entity: entity, attribute: attribute)
    }

    /// "Person.mood is transient: …", with how to run the request instead.
    public static func transientError(entity: String, attribute: String) -> Diagnostic {
        Diagnostic(.transientInStore,
                   "\(entity).\(attribute) is transient: it is kept only in a context's objects, never stored, so the store cannot fetch, test or sort by it",
                   at: .synthesized,
                   hints: ["evaluate it in memory (the memory engine, or a context's fetch with engine: .memory), or store it as a regular attribute"],
                   stage: .bind)
    }
}
