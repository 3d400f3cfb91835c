// `Evaluator.compile(_:for:)`: a predicate compiled for one host class that
// adopts `TypedKeyValueAccessible`. Objects of exactly that class run the
// typed closure tree (Compiler+Typed.swift), whose key paths were resolved to
// the class's accessors at compile time; every other value — dictionaries,
// other host types, subclasses (which may answer keys differently) — runs the
// general tree, so the predicate accepts anything `compile(_:)`'s does and
// answers alike.

extension Evaluator {
    /// Compiles `predicate` for objects of class `Root`, resolving its key
    /// paths to `Root`'s typed accessors once, here.
    ///
    /// ```swift
    /// let p = try Evaluator.compile(try Parser.parsePredicate("salary > 50000"), for: Employee.self)
    /// let rich = try p.filter(employees.map { .object(ObjectReference($0)) })
    /// ```
    public static func compile<Root: TypedKeyValueAccessible>(_ predicate: QuarrySyntax.Predicate, for type: Root.Type,
                                                              options: EvaluationOptions = .init()) throws(Diagnostic) -> CompiledPredicate {
        var compiler = Compiler(options: options)
        let general = try compiler.predicate(predicate)
        guard case .dynamic(let fallback) = general else {
            return CompiledPredicate(body: general, slotCount: compiler.slotCount)
        }
        var typedCompiler = TypedCompiler<Root>(base: compiler)
        let typed: TypedBoolClosure<Root>
        switch try typedCompiler.predicate(predicate) {
        case .dynamic(let f): typed = f
        case .constant(let b): typed = { _, _ in b }   // not reached: both trees fold alike
        }
        let rootType = ObjectIdentifier(Root.self)
        let body: BoolClosure = { (o, env) throws(Diagnostic) -> Bool in
            if case .object(let ref) = o, ObjectIdentifier(Swift.type(of: ref.object)) == rootType {
                return try typed(unsafeDowncast(ref.object, to: Root.self), env)
            }
            return try fallback(o, env)
        }
        return CompiledPredicate(body: .dynamic(body), slotCount: typedCompiler.base.slotCount)
    }
}
