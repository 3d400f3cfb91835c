// Function calls: the predefined functions (Functions.swift), then the host's
// FunctionRegistry, both resolved at compile time. An unknown name is E002
// with a suggestion; a known name with the wrong number of arguments is E004.

extension Compiler {
    mutating func arguments(_ args: [QueryExpression]) throws(Diagnostic) -> [CompiledValue] {
        var out: [CompiledValue] = []
        out.reserveCapacity(args.count)
        for a in args { out.append(try expression(a)) }
        return out
    }

    mutating func function(_ name: String, _ args: [QueryExpression], span: SourceSpan) throws(Diagnostic) -> CompiledValue {
        let compiled = try arguments(args)
        let closures = compiled.map(\.closure)
        let (builtin, mismatch) = Builtins.lookup(name, argumentCount: args.count)
        if let builtin {
            let context = BuiltinContext(span: span, now: options.now, random: random)
            let body = builtin.body
            return fold({ (o, env) throws(Diagnostic) -> Value in
                var values: [Value] = []
                values.reserveCapacity(closures.count)
                for c in closures { values.append(try c(o, env)) }
                return try body(values, context)
            }, compiled, pure: builtin.pure)
        }
        if let entry = options.functions.lookup(name) {
            try checkArity(entry, name, args.count, span)
            return hostCall(entry, receiver: { _, _ in .null }, closures, span: span)
        }
        if let mismatch {
            let expected = mismatch.arity.lowerBound == mismatch.arity.upperBound
                ? "\(mismatch.arity.lowerBound)" : "at least \(mismatch.arity.lowerBound)"
            throw evaluationError(.badFunctionArgument,
                                  "\(mismatch.name) takes \(expected) argument\(expected == "1" ? "" : "s"), got \(args.count)", at: span)
        }
        throw unknownFunction(name, span)
    }

    func unknownFunction(_ name: String, _ span: SourceSpan) -> Diagnostic {
        var hints: [String] = []
        let candidates = Array(Builtins.table.keys) + options.functions.names
        if let near = Suggestions.closest(to: name, among: candidates) { hints.append("did you mean \(near)?") }
        hints.append("host functions can be added to EvaluationOptions.functions")
        return evaluationError(.unknownFunction, "unknown function '\(name)'", at: span, hints: hints)
    }

    func checkArity(_ entry: FunctionRegistry.Entry, _ name: String, _ count: Int, _ span: SourceSpan) throws(Diagnostic) {
        if let arity = entry.arity, arity != count {
            throw evaluationError(.badFunctionArgument, "\(name) takes \(arity) argument\(arity == 1 ? "" : "s"), got \(count)", at: span)
        }
    }

    /// FUNCTION(receiver, 'name', args…).
    mutating func hostFunction(_ receiver: QueryExpression, _ name: QueryExpression, _ args: [QueryExpression],
                               span: SourceSpan) throws(Diagnostic) -> CompiledValue {
        let r = try expression(receiver)
        let n = try expression(name)
        let compiled = try arguments(args)
        let closures = compiled.map(\.closure)
        if let k = n.constant {
            guard case .string(let fname) = k else {
                throw evaluationError(.badFunctionArgument, "FUNCTION needs a function name string", at: name.span)
            }
            guard let entry = options.functions.lookup(fname) else {
                throw unknownFunction(fname, name.span)
            }
            try checkArity(entry, fname, args.count, span)
            return hostCall(entry, receiver: r.closure, closures, span: span)
        }
        let registry = options.functions
        let rf = r.closure, nf = n.closure
        return .dynamic { (o, env) throws(Diagnostic) -> Value in
            guard case .string(let fname) = try nf(o, env) else {
                throw evaluationError(.badFunctionArgument, "FUNCTION needs a function name string", at: span)
            }
            guard let entry = registry.lookup(fname) else {
                throw evaluationError(.unknownFunction, "unknown function '\(fname)'", at: span)
            }
            if let arity = entry.arity, arity != closures.count {
                throw evaluationError(.badFunctionArgument, "\(fname) takes \(arity) arguments, got \(closures.count)", at: span)
            }
            let receiver = try rf(o, env)
            var values: [Value] = []
            for c in closures { values.append(try c(o, env)) }
            return try Compiler.callHost(entry, receiver, values, span)
        }
    }

    func hostCall(_ entry: FunctionRegistry.Entry, receiver: @escaping ValueClosure, _ closures: [ValueClosure],
                  span: SourceSpan) -> CompiledValue {
        .dynamic { (o, env) throws(Diagnostic) -> Value in
            let r = try receiver(o, env)
            var values: [Value] = []
            values.reserveCapacity(closures.count)
            for c in closures { values.append(try c(o, env)) }
            return try Compiler.callHost(entry, r, values, span)
        }
    }

    /// Host errors without a location get the call's span and the evaluate stage.
    static func callHost(_ entry: FunctionRegistry.Entry, _ receiver: Value, _ values: [Value],
                         _ span: SourceSpan) throws(Diagnostic) -> Value {
        do {
            return try entry.body(receiver, values)
        } catch {
            var d = error
            if d.span.start == 0 && d.span.end == 0 { d.span = span }
            d.stage = .evaluate
            throw d
        }
    }
}
