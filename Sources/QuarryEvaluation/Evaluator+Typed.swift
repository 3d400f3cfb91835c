// `Evaluator.compile(_:for:)`: a predicate compiled for one host class that
// adopts `TypedKeyValueAccessible`. Objects of exactly that class run the
// host closure tree (Compiler+Typed.swift), whose key paths were resolved to
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
    public static func compile<Root: TypedKeyValueAccessible>(_ predicate: QueryPredicate, for type: Root.Type,
                                                              options: EvaluationOptions = .init()) throws(Diagnostic) -> CompiledPredicate {
        try compile(predicate, rootType: ObjectIdentifier(Root.self), rootRead: { Root.accessor(forKey: $0)?.read },
                    options: options)
    }

    /// The non-generic rest of `compile(_:for:)`, so that no closure of the
    /// result is generic code.
    static func compile(_ predicate: QueryPredicate, rootType: ObjectIdentifier,
                        rootRead: @escaping (String) -> KeyRead?, options: EvaluationOptions) throws(Diagnostic) -> CompiledPredicate {
        var compiler = Compiler(options: options)
        let general = try compiler.predicate(predicate)
        guard case .dynamic(let fallback) = general else {
            return CompiledPredicate(body: general, slotCount: compiler.slotCount)   // a constant raises nothing
        }
        var hostCompiler = HostCompiler(base: compiler, rootRead: rootRead)
        let host: HostBoolClosure
        switch try hostCompiler.predicate(predicate) {
        case .dynamic(let f): host = f
        case .constant(let b): host = { _, _ in b }   // not reached: both trees fold alike
        }
        let tolerant = try Evaluator.fallbackTree(predicate, options: options)
        return CompiledPredicate(body: .dynamic(fallback), slotCount: max(hostCompiler.base.slotCount, tolerant.slotCount),
                                 host: HostEntry(type: rootType, closure: host), fallback: tolerant.closure)
    }
}

/// The host tree of a predicate compiled for one class, and that class.
struct HostEntry: Sendable {
    let type: ObjectIdentifier
    let closure: HostBoolClosure
}
