// Reading a value where a failure to load it is an error, not a nil.
// `value(forKey:)` keeps Key-Value Coding's shape (it never throws): when the
// object's row cannot be loaded — deleted in the store by another context or
// process, unreadable (a transformable the transformer cannot decode), or
// the connection failed — it answers nil and leaves the error in
// `context.lastFaultError`, which a caller has to remember to look at. Core
// Data raises an exception there ("could not fulfill a fault"); in Swift the
// same thing is a thrown error, so `loadValue(forKey:)` throws it instead.
extension ManagedObject {
    /// The value of an attribute or relationship, as `value(forKey:)`, but
    /// throwing when the object's row or relationship cannot be loaded
    /// (`ContextError.fetchError` for a row deleted from the store, or the
    /// store's own error). nil for a key the entity does not have.
    public func loadValue(forKey key: String) throws -> Value? {
        guard let found = visible(info.property(key)) else { return nil }
        guard let context else { return value(of: try current(found)) }
        // A row that is gone does not throw out of the fault (so that
        // `value(forKey:)` can answer nil): it is reported only through
        // `lastFaultError`, which is therefore cleared first and read after.
        let earlier = context.lastFaultError
        context.lastFaultError = nil
        defer { if context.lastFaultError == nil { context.lastFaultError = earlier } }
        let current = try current(found)
        if let error = context.lastFaultError { throw error }
        return value(of: current)
    }
}
