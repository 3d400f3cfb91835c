// The statements of query files and the REPL (Grammar/statements.ebnf), as a
// tree. Predicates and expressions inside are the language's own AST; their
// spans, like every span here, are byte offsets into the statement's text.

/// A name as written, with where it stood (for "unknown entity" carets).
public struct Name: Sendable, Equatable {
    public var text: String
    public var span: SourceSpan

    public init(text: String, span: SourceSpan) {
        self.text = text
        self.span = span
    }
}

/// `expression [AS name]` in PROPERTIES or GROUP BY.
public struct PropertyItem: Sendable, Equatable {
    public var expression: QueryExpression
    /// The name the column gets: the AS name, or the printed expression.
    public var name: String
    public var span: SourceSpan
}

/// `keyPath [ASC|DESC]` in SORT BY.
public struct SortItem: Sendable, Equatable {
    public var keyPath: String
    public var ascending: Bool
    public var span: SourceSpan
}

/// `FETCH [DISTINCT] [ONLY] Entity [PROPERTIES ...] [WHERE p] [GROUP BY ...] [HAVING p]
/// [SORT BY ...] [LIMIT n] [OFFSET n] [BATCH n]`.
public struct FetchStatement: Sendable, Equatable {
    public var entity: Name
    public var distinct = false
    /// `ONLY`: objects of exactly this entity, none of its sub-entities
    /// (a request's `includesSubentities = false`).
    public var only = false
    public var properties: [PropertyItem] = []
    public var predicate: QueryPredicate?
    public var groupBy: [PropertyItem] = []
    public var having: QueryPredicate?
    public var sort: [SortItem] = []
    public var limit: Int?
    public var offset: Int?
    public var batchSize: Int?

    public init(entity: Name) { self.entity = entity }
}

/// One statement.
public indirect enum Statement: Sendable, Equatable {
    case fetch(FetchStatement)
    /// `COUNT [ONLY] Entity [WHERE p]`; `only` leaves sub-entities out.
    case count(entity: Name, predicate: QueryPredicate?, only: Bool)
    /// `FETCH FROM TEMPLATE name [WITH $variable = value, ...]`: the model's
    /// fetch request template, its `$variables` given by WITH (or by SET);
    /// the shell turns it into the FETCH the template describes.
    case fetchTemplate(name: Name, bindings: [(variable: Name, value: QueryExpression)])
    case eval(QueryExpression)
    /// `EVAL` of a predicate (`EVAL 'Zoë' ==[cd] 'zoe'`): true or false.
    case evalPredicate(QueryPredicate)
    /// `INSERT Entity {key: value, ...}`; a to-one relationship takes the
    /// destination's primary key or its ID as a string (`'Department/3'`).
    case insert(entity: Name, values: [(key: Name, value: QueryExpression)])
    case update(entity: Name, assignments: [(key: Name, value: QueryExpression)], predicate: QueryPredicate?)
    case delete(entity: Name, predicate: QueryPredicate?)
    case sections(entity: Name, keyPath: Name, predicate: QueryPredicate?, sort: [SortItem])
    case set(variable: Name, value: QueryExpression)
    case explain(Statement)
    /// BEGIN, COMMIT, ROLLBACK and savepoints (TransactionStatement.swift).
    case transaction(TransactionStatement)

    public static func == (a: Statement, b: Statement) -> Bool {
        switch (a, b) {
        case (.fetch(let x), .fetch(let y)): return x == y
        case (.count(let e1, let p1, let o1), .count(let e2, let p2, let o2)): return e1 == e2 && p1 == p2 && o1 == o2
        case (.fetchTemplate(let n1, let b1), .fetchTemplate(let n2, let b2)):
            return n1 == n2 && b1.map(\.variable) == b2.map(\.variable) && b1.map(\.value) == b2.map(\.value)
        case (.eval(let x), .eval(let y)): return x == y
        case (.evalPredicate(let x), .evalPredicate(let y)): return x == y
        case (.insert(let e1, let v1), .insert(let e2, let v2)):
            return e1 == e2 && v1.map(\.key) == v2.map(\.key) && v1.map(\.value) == v2.map(\.value)
        case (.update(let e1, let a1, let p1), .update(let e2, let a2, let p2)):
            return e1 == e2 && a1.map(\.key) == a2.map(\.key) && a1.map(\.value) == a2.map(\.value) && p1 == p2
        case (.delete(let e1, let p1), .delete(let e2, let p2)): return e1 == e2 && p1 == p2
        case (.sections(let e1, let k1, let p1, let s1), .sections(let e2, let k2, let p2, let s2)):
            return e1 == e2 && k1 == k2 && p1 == p2 && s1 == s2
        case (.set(let v1, let x1), .set(let v2, let x2)): return v1 == v2 && x1 == x2
        case (.explain(let x), .explain(let y)): return x == y
        case (.transaction(let x), .transaction(let y)): return x == y
        default: return false
        }
    }

    /// The statement's first word, as messages and `.ast` name it.
    public var verb: String {
        switch self {
        case .fetch, .fetchTemplate: return "FETCH"
        case .count: return "COUNT"
        case .eval, .evalPredicate: return "EVAL"
        case .insert: return "INSERT"
        case .update: return "UPDATE"
        case .delete: return "DELETE"
        case .sections: return "SECTIONS"
        case .set: return "SET"
        case .explain: return "EXPLAIN"
        case .transaction(let t): return String(t.text.prefix { $0 != " " })
        }
    }
}
