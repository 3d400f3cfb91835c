// Expressions → closures: constants, SELF, variables, key paths (with a fast
// path for one or two plain keys, the common `salary` and `department.name`),
// subscripts, aggregates, arithmetic, TERNARY, CAST, SUBQUERY, set operations
// and assignments. Functions are in Compiler+Functions.swift.

extension Compiler {
    mutating func expression(_ e: QueryExpression) throws(Diagnostic) -> CompiledValue {
        let span = e.span
        switch e.kind {
        case .constant(let v):
            return .constant(v)
        case .evaluatedObject:
            return .dynamic { o, _ in o }
        case .variable(let name):
            return variable(name, span: span)
        case .keyPath(let base, let path):
            return try keyPath(base: base, path: path, span: span)
        case .index(let base, let sub):
            return try index(base, sub, span: span)
        case .aggregate(let items):
            var parts: [CompiledValue] = []
            for item in items { parts.append(try expression(item)) }
            let closures = parts.map(\.closure)
            return fold({ (o, env) throws(Diagnostic) -> Value in
                var out: [Value] = []
                out.reserveCapacity(closures.count)
                for c in closures { out.append(try c(o, env)) }
                return .array(out)
            }, parts)
        case .function(let name, let arguments):
            return try function(name, arguments, span: span)
        case .functionCall(let receiver, let name, let arguments):
            return try hostFunction(receiver, name, arguments, span: span)
        case .binary(let op, let a, let b):
            let l = try expression(a), r = try expression(b)
            let lf = l.closure, rf = r.closure
            return fold({ (o, env) throws(Diagnostic) -> Value in
                let x = try lf(o, env), y = try rf(o, env)
                if case .int(let i) = x, case .int(let j) = y, op == .add || op == .subtract || op == .multiply {
                    let (v, overflow) = op == .add ? i.addingReportingOverflow(j)
                        : (op == .subtract ? i.subtractingReportingOverflow(j) : i.multipliedReportingOverflow(by: j))
                    if !overflow { return .int(v) }
                }
                return try Arithmetic.binary(op, x, y, span: span)
            }, [l, r])
        case .unary(let op, let a):
            let v = try expression(a)
            let f = v.closure
            return fold({ (o, env) throws(Diagnostic) -> Value in
                let x = try f(o, env)
                return op == .negate ? try Arithmetic.negate(x, span: span) : try Arithmetic.complement(x, span: span)
            }, [v])
        case .ternary(let condition, let a, let b):
            let c = try predicate(condition)
            let x = try expression(a), y = try expression(b)
            if let k = c.constant { return k ? x : y }
            let cf = c.closure, xf = x.closure, yf = y.closure
            return .dynamic { (o, env) throws(Diagnostic) -> Value in try cf(o, env) ? try xf(o, env) : try yf(o, env) }
        case .cast(let value, let type):
            return try cast(value, type, span: span)
        case .subquery(let collection, let variable, let condition):
            return try subquery(collection, variable, condition, span: span)
        case .setOperation(let op, let a, let b):
            let l = try expression(a), r = try expression(b)
            let lf = l.closure, rf = r.closure
            return fold({ (o, env) throws(Diagnostic) -> Value in
                try SetOperations.apply(op, try lf(o, env), try rf(o, env), span: span)
            }, [l, r])
        case .assignment(let name, let value):
            let v = try expression(value)
            let f = v.closure
            let slot = newSlot()
            scopes[scopes.count - 1][name] = slot
            return .dynamic { (o, env) throws(Diagnostic) -> Value in
                let x = try f(o, env)
                env.slots!.values[slot] = x
                return x
            }
        case .anyKey:
            throw evaluationError(.unsupportedOperation, "ANYKEY cannot be evaluated in memory", at: span,
                                  hints: ["ANYKEY belongs to Spotlight queries"])
        case .placeholder(let text):
            throw evaluationError(.unsupportedOperation, "unsubstituted argument \(text)", at: span,
                                  hints: ["parse with arguments so that \(text) receives a value"])
        }
    }

    func variable(_ name: String, span: SourceSpan) -> CompiledValue {
        if let slot = slot(for: name) {
            return .dynamic { (_, env) throws(Diagnostic) -> Value in
                if let v = env.slots!.values[slot] { return v }
                return try variableValue(env, name, span)
            }
        }
        return .dynamic { (_, env) throws(Diagnostic) -> Value in try variableValue(env, name, span) }
    }

    mutating func keyPath(base: QueryExpression?, path: [String], span: SourceSpan) throws(Diagnostic) -> CompiledValue {
        if path.contains(where: { $0.hasPrefix("$") }) { return try variableKeyPath(base: base, path: path, span: span) }
        let kp = try CompiledKeyPath(path, span: span)
        if let base {
            let b = try expression(base)
            let bf = b.closure
            return fold({ (o, env) throws(Diagnostic) -> Value in try kp.resolve(try bf(o, env)) }, [b])
        }
        // Fast paths: one or two plain keys from SELF.
        if kp.steps.count == 1, case .key(let k) = kp.steps[0] {
            return .dynamic { (o, _) throws(Diagnostic) -> Value in try KeyAccess.value(of: o, key: k, span: span) }
        }
        if kp.steps.count == 2, case .key(let k1) = kp.steps[0], case .key(let k2) = kp.steps[1] {
            return .dynamic { (o, _) throws(Diagnostic) -> Value in
                try KeyAccess.value(of: try KeyAccess.value(of: o, key: k1, span: span), key: k2, span: span)
            }
        }
        return .dynamic { (o, _) throws(Diagnostic) -> Value in try kp.resolve(o) }
    }

    /// `$a.$b`: a key taken from a variable (Apple accepts it; the key
    /// must be a string when the path is evaluated).
    mutating func variableKeyPath(base: QueryExpression?, path: [String], span: SourceSpan) throws(Diagnostic) -> CompiledValue {
        var b: ValueClosure = { o, _ in o }
        if let base { b = try expression(base).closure }
        var parts: [(String?, ValueClosure?)] = []
        for component in path {
            if component.hasPrefix("$") {
                parts.append((nil, variable(String(component.dropFirst()), span: span).closure))
            } else {
                parts.append((component, nil))
            }
        }
        let components = parts, start = b
        return .dynamic { (o, env) throws(Diagnostic) -> Value in
            var keys: [String] = []
            for (fixed, dynamic) in components {
                if let fixed { keys.append(fixed); continue }
                let k = try dynamic!(o, env)
                guard case .string(let key) = k else {
                    throw evaluationError(.typeMismatch, "a key must be a string, but the variable holds \(k.typeName) \(Printer.format(k))", at: span)
                }
                keys.append(contentsOf: key.split(separator: ".", omittingEmptySubsequences: false).map(String.init))
            }
            return try CompiledKeyPath(keys, span: span).resolve(try start(o, env))
        }
    }

    mutating func index(_ base: QueryExpression, _ sub: Subscript, span: SourceSpan) throws(Diagnostic) -> CompiledValue {
        let b = try expression(base)
        let bf = b.closure
        switch sub {
        case .first, .last, .size:
            let symbol: Index.Symbol = sub == .first ? .first : (sub == .last ? .last : .size)
            return fold({ (o, env) throws(Diagnostic) -> Value in
                try Index.element(of: try bf(o, env), symbol: symbol, span: span)
            }, [b])
        case .expression(let i):
            let x = try expression(i)
            let xf = x.closure
            return fold({ (o, env) throws(Diagnostic) -> Value in
                try Index.element(of: try bf(o, env), at: try xf(o, env), span: span)
            }, [b, x])
        }
    }

    mutating func cast(_ value: QueryExpression, _ type: QueryExpression, span: SourceSpan) throws(Diagnostic) -> CompiledValue {
        let v = try expression(value), t = try expression(type)
        if let k = t.constant {
            guard case .string(let name) = k else {
                throw evaluationError(.badFunctionArgument, "CAST needs a type name string such as 'NSDate'", at: type.span)
            }
            guard Cast.typeNames.contains(name) || ["String", "Date", "UUID", "Data"].contains(name) else {
                throw evaluationError(.badFunctionArgument, "unknown CAST type '\(name)'", at: type.span,
                                      hints: ["CAST takes one of " + Cast.typeNames.map { "'\($0)'" }.joined(separator: ", ")])
            }
        }
        let vf = v.closure, tf = t.closure
        return fold({ (o, env) throws(Diagnostic) -> Value in
            let x = try vf(o, env)
            guard case .string(let name) = try tf(o, env) else {
                throw evaluationError(.badFunctionArgument, "CAST needs a type name string such as 'NSDate'", at: span)
            }
            return try Cast.cast(x, to: name, span: span)
        }, [v, t])
    }

    mutating func subquery(_ collection: QueryExpression, _ name: String, _ condition: QueryPredicate,
                           span: SourceSpan) throws(Diagnostic) -> CompiledValue {
        let c = try expression(collection)
        let slot = newSlot()
        scopes.append([name: slot])
        let p = try predicate(condition)
        scopes.removeLast()
        let cf = c.closure, pf = p.closure
        let collectionSpan = collection.span
        return .dynamic { (o, env) throws(Diagnostic) -> Value in
            let value = try cf(o, env)
            let items: [Value]
            switch value {
            case .null: return .array([])
            case .array(let a), .orderedSet(let a), .set(let a): items = a
            case .dictionary(let d): items = Array(d.values)
            default:
                throw evaluationError(.typeMismatch, "SUBQUERY needs a collection, got \(value.typeName)", at: collectionSpan)
            }
            let slots = env.slots!
            let saved = slots.values[slot]
            defer { slots.values[slot] = saved }
            var out: [Value] = []
            for item in items {
                slots.values[slot] = item
                if try pf(o, env) { out.append(item) }
            }
            if case .set = value { return .set(out) }
            return .array(out)
        }
    }
}

enum SetOperations {
    /// UNION, INTERSECT, MINUS: the result is a set; nil counts as empty.
    static func apply(_ op: SetOperator, _ a: Value, _ b: Value, span: SourceSpan) throws(Diagnostic) -> Value {
        func items(_ v: Value) throws(Diagnostic) -> [Value] {
            if v.isNull { return [] }
            guard let e = Collections.elements(v) else {
                throw evaluationError(.typeMismatch, "\(op.rawValue) needs collections, got \(v.typeName)", at: span)
            }
            return e
        }
        let x = try items(a), y = try items(b)
        switch op {
        case .union: return Collections.makeSet(x + y)
        case .intersect:
            let keys = Set(y.map(HashKey.init))
            return Collections.makeSet(x.filter { keys.contains(HashKey($0)) })
        case .minus:
            let keys = Set(y.map(HashKey.init))
            return Collections.makeSet(x.filter { !keys.contains(HashKey($0)) })
        }
    }
}
