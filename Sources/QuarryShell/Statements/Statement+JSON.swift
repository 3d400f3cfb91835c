// The statement tree as JSON, for `.ast`: the statement's own fields, with
// predicates and expressions in the same JSON form `quarry parse --json` uses.

extension Statement {
    public var json: JSON {
        func sort(_ items: [SortItem]) -> JSON {
            .array(items.map { .object([("keyPath", .string($0.keyPath)), ("ascending", .bool($0.ascending))]) })
        }
        func items(_ list: [PropertyItem]) -> JSON {
            .array(list.map { .object([("name", .string($0.name)), ("expression", $0.expression.json)]) })
        }
        func optional(_ p: QueryPredicate?) -> JSON { p?.json ?? .null }
        switch self {
        case .fetch(let f):
            var members: [(String, JSON)] = [("statement", .string("FETCH")), ("entity", .string(f.entity.text)),
                                             ("distinct", .bool(f.distinct))]
            if f.only { members.append(("only", .bool(true))) }
            if !f.properties.isEmpty { members.append(("properties", items(f.properties))) }
            if let p = f.predicate { members.append(("where", p.json)) }
            if !f.groupBy.isEmpty { members.append(("groupBy", items(f.groupBy))) }
            if let h = f.having { members.append(("having", h.json)) }
            if !f.sort.isEmpty { members.append(("sortBy", sort(f.sort))) }
            if let l = f.limit { members.append(("limit", .int(Int64(l)))) }
            if let o = f.offset { members.append(("offset", .int(Int64(o)))) }
            if let b = f.batchSize { members.append(("batch", .int(Int64(b)))) }
            return .object(members)
        case .count(let e, let p, let only):
            var members: [(String, JSON)] = [("statement", .string("COUNT")), ("entity", .string(e.text))]
            if only { members.append(("only", .bool(true))) }
            return .object(members + [("where", optional(p))])
        case .fetchTemplate(let name, let bindings):
            return .object([("statement", .string("FETCH")), ("template", .string(name.text)),
                            ("with", .object(bindings.map { ($0.variable.text, $0.value.json) }))])
        case .eval(let e):
            return .object([("statement", .string("EVAL")), ("expression", e.json)])
        case .evalPredicate(let p):
            return .object([("statement", .string("EVAL")), ("predicate", p.json)])
        case .insert(let e, let values):
            return .object([("statement", .string("INSERT")), ("entity", .string(e.text)),
                            ("values", .object(values.map { ($0.key.text, $0.value.json) }))])
        case .update(let e, let assignments, let p):
            return .object([("statement", .string("UPDATE")), ("entity", .string(e.text)),
                            ("set", .object(assignments.map { ($0.key.text, $0.value.json) })), ("where", optional(p))])
        case .delete(let e, let p):
            return .object([("statement", .string("DELETE")), ("entity", .string(e.text)), ("where", optional(p))])
        case .sections(let e, let k, let p, let s):
            return .object([("statement", .string("SECTIONS")), ("entity", .string(e.text)), ("by", .string(k.text)),
                            ("where", optional(p)), ("sortBy", sort(s))])
        case .set(let v, let e):
            return .object([("statement", .string("SET")), ("variable", .string(v.text)), ("value", e.json)])
        case .explain(let inner):
            return .object([("statement", .string("EXPLAIN")), ("explained", inner.json)])
        case .transaction(let t):
            return .object([("statement", .string(t.text))])
        }
    }
}
