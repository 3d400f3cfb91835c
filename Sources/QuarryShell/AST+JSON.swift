// The syntax tree as JSON, for `quarry parse --json` and tools: one object per
// node with a "type", the node's fields, and its source span in UTF-8 bytes.

extension QueryPredicate {
    public var json: JSON {
        var fields: [(String, JSON)]
        switch kind {
        case .constant(let b): fields = [("type", .string(b ? "true" : "false"))]
        case .not(let p): fields = [("type", .string("not")), ("operand", p.json)]
        case .and(let ps): fields = [("type", .string("and")), ("operands", .array(ps.map(\.json)))]
        case .or(let ps): fields = [("type", .string("or")), ("operands", .array(ps.map(\.json)))]
        case .comparison(let c):
            fields = [("type", .string("comparison")), ("operator", .string(c.op.rawValue))]
            if c.modifier != .direct { fields.append(("modifier", .string(c.modifier.rawValue))) }
            if !c.options.isEmpty { fields.append(("options", .string(c.options.letters))) }
            fields += [("left", c.lhs.json), ("right", c.rhs.json)]
        }
        fields.append(("span", span.json))
        return .object(fields)
    }
}

extension QueryExpression {
    public var json: JSON {
        var fields: [(String, JSON)]
        switch kind {
        case .constant(let v): fields = [("type", .string("constant")), ("value", v.json)]
        case .evaluatedObject: fields = [("type", .string("self"))]
        case .variable(let n): fields = [("type", .string("variable")), ("name", .string(n))]
        case .keyPath(let base, let path):
            fields = [("type", .string("keyPath"))]
            if let base { fields.append(("base", base.json)) }
            fields.append(("path", .array(path.map(JSON.string))))
        case .index(let base, let sub):
            let subscriptJSON: JSON
            switch sub {
            case .first: subscriptJSON = .string("FIRST")
            case .last: subscriptJSON = .string("LAST")
            case .size: subscriptJSON = .string("SIZE")
            case .expression(let e): subscriptJSON = e.json
            }
            fields = [("type", .string("index")), ("base", base.json), ("index", subscriptJSON)]
        case .aggregate(let es): fields = [("type", .string("aggregate")), ("elements", .array(es.map(\.json)))]
        case .function(let name, let args):
            fields = [("type", .string("function")), ("name", .string(name)), ("arguments", .array(args.map(\.json)))]
        case .binary(let op, let l, let r):
            fields = [("type", .string("binary")), ("operator", .string(op.rawValue)), ("function", .string(op.functionName)),
                      ("left", l.json), ("right", r.json)]
        case .unary(let op, let e): fields = [("type", .string("unary")), ("operator", .string(op.rawValue)), ("operand", e.json)]
        case .ternary(let p, let a, let b):
            fields = [("type", .string("ternary")), ("condition", p.json), ("then", a.json), ("else", b.json)]
        case .cast(let v, let t): fields = [("type", .string("cast")), ("value", v.json), ("to", t.json)]
        case .functionCall(let r, let n, let args):
            fields = [("type", .string("FUNCTION")), ("receiver", r.json), ("name", n.json), ("arguments", .array(args.map(\.json)))]
        case .subquery(let c, let v, let p):
            fields = [("type", .string("subquery")), ("collection", c.json), ("variable", .string(v)), ("predicate", p.json)]
        case .setOperation(let op, let l, let r):
            fields = [("type", .string("set")), ("operator", .string(op.rawValue)), ("left", l.json), ("right", r.json)]
        case .assignment(let v, let e): fields = [("type", .string("assignment")), ("variable", .string(v)), ("value", e.json)]
        case .anyKey: fields = [("type", .string("anykey"))]
        case .placeholder(let t): fields = [("type", .string("placeholder")), ("specifier", .string(t))]
        }
        fields.append(("span", span.json))
        return .object(fields)
    }
}

extension SourceSpan {
    var json: JSON { .array([.int(Int64(start)), .int(Int64(end))]) }
}
