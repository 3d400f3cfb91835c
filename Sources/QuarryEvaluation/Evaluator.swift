// The evaluator's public face: options, `Evaluator.compile`, and the compiled
// predicate and expression that run against objects.
//
// Compiling walks the tree once and builds a tree of closures: constant
// sub-trees are folded, key paths are split and checked, constant strings
// are folded for [cd], constant LIKE patterns and regular expressions are
// prepared, and function names are resolved, so unknown functions and
// unsupported operators are reported before any object is seen. Evaluation
// then only runs closures. Errors at either stage are `Diagnostic`s with
// stage `.evaluate`, an E-code and the span of the node that failed; no input
// traps.
import Foundation

/// How compiled predicates and expressions behave.
///
/// ```swift
/// var options = EvaluationOptions()
/// options.now = { 800_000_000 }      // a fixed clock for reproducible results
/// options.randomSeed = 42
/// ```
public struct EvaluationOptions: Sendable {
    /// The clock `now()` reads: seconds since 2001-01-01 00:00:00 UTC.
    public var now: @Sendable () -> Double = { Date().timeIntervalSinceReferenceDate }
    /// Seed of the generator behind `random` and `random:`; each compiled tree
    /// starts its own sequence from it.
    public var randomSeed: UInt64 = 0x5155_4152_5259
    /// Host functions for `FUNCTION(receiver, 'name', …)` and unknown plain calls.
    public var functions: FunctionRegistry = .standard
    /// Seconds one MATCHES may run before it is stopped with error E006.
    public var regexTimeLimit: Double = 1.0

    public init() {}
}

/// Compiles syntax trees into closures that evaluate them.
///
/// ```swift
/// let p = try Evaluator.compile(try Parser.parsePredicate("name BEGINSWITH[cd] 'jo' AND age > 30"))
/// try p.evaluate(.dictionary(["name": .string("José"), "age": .int(41)]))   // true
///
/// let e = try Evaluator.compile(try Parser.parseExpression("average:(employees.salary)"))
/// try e.evaluate(company)    // .double(…)
/// ```
public enum Evaluator {
    public static func compile(_ predicate: QueryPredicate, options: EvaluationOptions = .init()) throws(Diagnostic) -> CompiledPredicate {
        var compiler = Compiler(options: options)
        let body = try compiler.predicate(predicate)
        let fallback = try fallbackTree(predicate, options: options)
        return CompiledPredicate(body: body, slotCount: max(compiler.slotCount, fallback.slotCount), fallback: fallback.closure)
    }

    /// The tree an evaluation that raised runs again (Compiler.decidedByAnyPart).
    static func fallbackTree(_ predicate: QueryPredicate, options: EvaluationOptions) throws(Diagnostic) -> (closure: BoolClosure, slotCount: Int) {
        var compiler = Compiler(options: options)
        compiler.decidesPastErrors = true
        let body = try compiler.predicate(predicate)
        return (body.closure, compiler.slotCount)
    }

    public static func compile(_ expression: QueryExpression, options: EvaluationOptions = .init()) throws(Diagnostic) -> CompiledExpression {
        var compiler = Compiler(options: options)
        let body = try compiler.expression(expression)
        return CompiledExpression(body: body, slotCount: compiler.slotCount)
    }
}

/// A predicate ready to evaluate against many objects; safe to share between threads.
///
/// ```swift
/// let adults = try Evaluator.compile(try Parser.parsePredicate("age >= 18"))
/// let rows = try adults.filter(people)
/// ```
public struct CompiledPredicate: Sendable {
    let body: CompiledBool
    @usableFromInline let slotCount: Int
    /// The closure itself, unwrapped once; a constant answers through a
    /// closure too. Not an Optional: a closure stored in a generic container
    /// is kept at the container's abstraction, and every call would then go
    /// through a reabstraction thunk.
    @usableFromInline let closure: BoolClosure
    /// From `compile(_:for:)`: objects of exactly class `hostType` run
    /// `hostClosure` instead (Evaluator+Typed.swift). Without one, a class
    /// no object has. Two plain fields rather than an optional struct: the
    /// optional was copied, closure context and all, on every call.
    @usableFromInline let hostType: ObjectIdentifier
    @usableFromInline let hostClosure: HostBoolClosure
    /// `Env.none`, copied here once: reading the global on every call cost
    /// a `swift_once` check.
    @usableFromInline let plain = PlainEnv()

    /// The tree run again when the first raises: its ANDs and ORs answer
    /// when a part decides them despite an error in another
    /// (Compiler.decidedByAnyPart). Every object of every kind falls back
    /// to it, host objects through their keys.
    @usableFromInline let fallback: BoolClosure

    init(body: CompiledBool, slotCount: Int, host: HostEntry? = nil, fallback: BoolClosure? = nil) {
        self.body = body
        self.slotCount = slotCount
        closure = body.closure
        self.fallback = fallback ?? body.closure
        if let host {
            hostType = host.type
            hostClosure = host.closure
        } else {
            hostType = ObjectIdentifier(NoHost.self)
            hostClosure = { _, _ in false }
        }
    }

    /// Whether the predicate holds for `object` (what SELF is; `.null` for
    /// none), with `$VARIABLE`s taken from `variables`.
    public func evaluate(_ object: Value, variables: [String: Value]) throws(Diagnostic) -> Bool {
        try run(object, variables)
    }

    /// Whether the predicate holds for `object` (what SELF is; `.null` for
    /// none), without `$VARIABLE`s. (An overload rather than a default
    /// argument: the caller then builds no empty dictionary per call.)
    ///
    /// Inlinable, down to the choice between the host tree and the general
    /// one: inlined into the caller's loop, the object is only borrowed, so
    /// the caller need not copy it out of its array (a retain and a release
    /// per object).
    @inlinable
    public func evaluate(_ object: Value) throws(Diagnostic) -> Bool {
        switch object {
        case .object(let ref) where ObjectIdentifier(type(of: ref.object)) == hostType:
            if slotCount == 0 {
                do throws(Diagnostic) { return try hostClosure(ref, plain.env) } catch { return try fallback(object, plain.env) }
            }
            return try evaluateHost(ref)
        default:
            if slotCount == 0 {
                do throws(Diagnostic) { return try closure(object, plain.env) } catch { return try fallback(object, plain.env) }
            }
            return try evaluateGeneral(object)
        }
    }

    @usableFromInline
    func evaluateHost(_ ref: ObjectReference) throws(Diagnostic) -> Bool {
        try run(.object(ref), [:])
    }

    @usableFromInline
    func evaluateGeneral(_ object: Value) throws(Diagnostic) -> Bool {
        try run(object, [:])
    }

    @inline(__always)
    func run(_ object: Value, _ variables: [String: Value]) throws(Diagnostic) -> Bool {
        if slotCount == 0 && variables.isEmpty { return try run(object, plain.env) }
        return try Env.with(variables, slots: slotCount == 0 ? nil : SlotStorage(count: slotCount)) {
            (env) throws(Diagnostic) -> Bool in try run(object, env)
        }
    }

    @inline(__always)
    func run(_ object: borrowing Value, _ env: Env) throws(Diagnostic) -> Bool {
        // Borrowed here too: only the fallback, after an error, copies it.
        do throws(Diagnostic) { return try runFirst(object, env) } catch { return try fallback(copy object, env) }
    }

    @inline(__always)
    func runFirst(_ object: borrowing Value, _ env: Env) throws(Diagnostic) -> Bool {
        // A borrowing switch: the object reference is lent to the host tree,
        // not copied (a copy cost a retain and a release per object).
        switch object {
        case .object(let ref) where ObjectIdentifier(type(of: ref.object)) == hostType:
            return try hostClosure(ref, env)
        default:
            return try closure(copy object, env)
        }
    }

    /// The objects for which the predicate holds, in order.
    public func filter(_ objects: [Value], variables: [String: Value] = [:]) throws(Diagnostic) -> [Value] {
        var out: [Value] = []
        for o in objects where try run(o, variables) { out.append(o) }
        return out
    }

    /// The result when it does not depend on the object or variables
    /// (the predicate folded to a constant at compile time), else nil.
    public var constantValue: Bool? {
        if case .constant(let b) = body { return b }
        return nil
    }
}

/// `Env.none` in a Sendable box. Safe to share: it has no slots, and its
/// empty dictionary is immutable and never freed.
@usableFromInline
struct PlainEnv: @unchecked Sendable {
    @usableFromInline let env = Env.none
    init() {}
}

/// The class of no object: `hostType` of a predicate compiled without one.
private final class NoHost {}

/// An expression ready to evaluate against many objects; safe to share between threads.
///
/// ```swift
/// let e = try Evaluator.compile(try Parser.parseExpression("7 / 2"))
/// try e.evaluate(.null)   // .int(3)
/// ```
public struct CompiledExpression: Sendable {
    let body: CompiledValue
    let slotCount: Int

    /// The expression's value for `object` (SELF; `.null` for none).
    public func evaluate(_ object: Value, variables: [String: Value] = [:]) throws(Diagnostic) -> Value {
        switch body {
        case .constant(let v): return v
        case .dynamic(let f):
            return try Env.with(variables, slots: slotCount == 0 ? nil : SlotStorage(count: slotCount)) {
                (env) throws(Diagnostic) -> Value in try f(object, env)
            }
        }
    }

    /// The value when it does not depend on the object or variables, else nil.
    public var constantValue: Value? {
        if case .constant(let v) = body { return v }
        return nil
    }
}
