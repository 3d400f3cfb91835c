// The untyped syntax tree the parser produces: predicates (things that are true
// or false) and expressions (things that have a value), each node with the
// source span it came from. The binder and evaluator read it; nothing decorates
// it in place.
//
// Shapes follow Apple's NSPredicate / NSExpression model closely so that the
// printer can reproduce `predicateFormat`, with a few normalisations done by
// the parser (documented on each case) so that printing and re-parsing gives
// back the same tree.

/// A predicate: a condition that evaluates to true or false.
public struct QueryPredicate: Sendable, Equatable {
    public var kind: Kind
    public var span: SourceSpan

    public init(_ kind: Kind, span: SourceSpan = .synthesized) {
        self.kind = kind
        self.span = span
    }

    // Only the cases that hold a predicate of their own are boxed: a
    // comparison or a compound is stored inline, which spares an allocation
    // per node when parsing.
    public enum Kind: Sendable, Equatable {
        /// TRUEPREDICATE / FALSEPREDICATE.
        case constant(Bool)
        indirect case not(QueryPredicate)
        /// A chain `a AND b AND c` without parentheses is one node; a
        /// parenthesised compound inside another stays nested (as in Apple).
        case and([QueryPredicate])
        case or([QueryPredicate])
        case comparison(Comparison)
    }
}

/// `lhs op[options] rhs`, possibly quantified by ANY / ALL / NONE.
public struct Comparison: Sendable, Equatable {
    public var modifier: ComparisonModifier
    public var op: ComparisonOperator
    public var options: ComparisonOptions
    public var lhs: QueryExpression
    public var rhs: QueryExpression

    public init(_ lhs: QueryExpression, _ op: ComparisonOperator, _ rhs: QueryExpression,
                modifier: ComparisonModifier = .direct, options: ComparisonOptions = []) {
        self.lhs = lhs
        self.op = op
        self.rhs = rhs
        self.modifier = modifier
        self.options = options
    }
}

public enum ComparisonModifier: String, Sendable, Equatable, CaseIterable {
    case direct = ""
    /// ANY and its synonym SOME.
    case any = "ANY"
    case all = "ALL"
    /// NONE: true when no element satisfies the comparison (NOT ANY).
    case none = "NONE"
}

public enum ComparisonOperator: String, Sendable, Equatable, CaseIterable {
    case equal = "=="
    case notEqual = "!="
    case less = "<"
    case lessOrEqual = "<="
    case greater = ">"
    case greaterOrEqual = ">="
    case matches = "MATCHES"
    case like = "LIKE"
    case beginsWith = "BEGINSWITH"
    case endsWith = "ENDSWITH"
    case `in` = "IN"
    case contains = "CONTAINS"
    case between = "BETWEEN"
    case utiConformsTo = "UTI-CONFORMS-TO"
    case utiEquals = "UTI-EQUALS"
}

/// The bracketed options after an operator: `[c]`, `[d]`, `[cd]`, `[n]`, `[l]`.
public struct ComparisonOptions: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let caseInsensitive = ComparisonOptions(rawValue: 1)
    public static let diacriticInsensitive = ComparisonOptions(rawValue: 2)
    /// Both sides are already normalised: no folding (overrides c and d).
    public static let normalized = ComparisonOptions(rawValue: 4)
    public static let localeSensitive = ComparisonOptions(rawValue: 8)

    /// The letters in canonical order, e.g. "cd".
    public var letters: String {
        var s = ""
        if contains(.caseInsensitive) { s += "c" }
        if contains(.diacriticInsensitive) { s += "d" }
        if contains(.normalized) { s += "n" }
        if contains(.localeSensitive) { s += "l" }
        return s
    }
}

/// An expression: something with a value.
public struct QueryExpression: Sendable, Equatable {
    public var kind: Kind
    public var span: SourceSpan

    public init(_ kind: Kind, span: SourceSpan = .synthesized) {
        self.kind = kind
        self.span = span
    }

    // Only the cases that hold an expression (or a predicate) of their own,
    // and `function` to keep the others small, are boxed: a constant, a
    // variable or an aggregate is stored inline, which spares an allocation
    // per literal when parsing.
    public enum Kind: Sendable, Equatable {
        /// A literal or a substituted argument. An aggregate `{1, 2}` whose
        /// elements are all constants becomes one constant array, as an `%@`
        /// array argument does, so both print and re-parse alike. A `CAST` of
        /// a number literal to 'NSDate' becomes a date constant.
        case constant(Value)
        /// SELF.
        case evaluatedObject
        /// `$name`.
        case variable(String)
        /// `a.b.@count`: `base` is nil for a path that starts at the evaluated
        /// object; otherwise the path continues from another expression
        /// (`$x.name`, `SUBQUERY(...).@count`, `items[0].name`, `SELF.name`).
        /// A component that starts with `$` (`$a.$b`) names a variable whose
        /// value is the key; one that starts with `%` is an unsubstituted `%K`.
        indirect case keyPath(base: QueryExpression?, path: [String])
        /// `x[...]`.
        indirect case index(QueryExpression, Subscript)
        /// `{a, $b, c.d}` with at least one non-constant element.
        case aggregate([QueryExpression])
        /// A function in call (`now()`) or selector (`average:(x)`) spelling;
        /// `name` is kept as written (`average:`, `add:to:`, `now`).
        indirect case function(name: String, arguments: [QueryExpression])
        /// Binary arithmetic and bitwise operators.
        indirect case binary(BinaryOperator, QueryExpression, QueryExpression)
        /// Unary minus and bitwise complement (`-x`, `~x`). A minus written
        /// directly before a number literal folds into a negative constant.
        indirect case unary(UnaryOperator, QueryExpression)
        /// `TERNARY(predicate, a, b)`.
        indirect case ternary(QueryPredicate, QueryExpression, QueryExpression)
        /// `CAST(value, type)`.
        indirect case cast(QueryExpression, type: QueryExpression)
        /// `FUNCTION(receiver, 'name', args...)`.
        indirect case functionCall(receiver: QueryExpression, name: QueryExpression, arguments: [QueryExpression])
        /// `SUBQUERY(collection, $variable, predicate)`.
        indirect case subquery(collection: QueryExpression, variable: String, predicate: QueryPredicate)
        /// `a UNION b`, `a INTERSECT b`, `a MINUS b`.
        indirect case setOperation(SetOperator, QueryExpression, QueryExpression)
        /// `$x := expr`.
        indirect case assignment(variable: String, value: QueryExpression)
        /// ANYKEY.
        case anyKey
        /// An argument specifier left in place because the text was parsed
        /// without arguments (parse-only): `%@`, `%d`, `%1$@`.
        case placeholder(String)
    }
}

public enum Subscript: Sendable, Equatable {
    case first, last, size
    case expression(QueryExpression)
}

public enum BinaryOperator: String, Sendable, Equatable, CaseIterable {
    case add = "+"
    case subtract = "-"
    case multiply = "*"
    case divide = "/"
    case power = "**"
    case bitwiseAnd = "&"
    case bitwiseOr = "|"
    case bitwiseXor = "^"
    case leftShift = "<<"
    case rightShift = ">>"

    /// Binding strength: higher binds tighter.
    public var precedence: Int {
        switch self {
        case .bitwiseOr: return 1
        case .bitwiseXor: return 2
        case .bitwiseAnd: return 3
        case .leftShift, .rightShift: return 4
        case .add, .subtract: return 5
        case .multiply, .divide: return 6
        case .power: return 7
        }
    }

    /// Apple's function for the operator (`NSExpression` represents `a + b` as `add:to:`).
    public var functionName: String {
        switch self {
        case .add: return "add:to:"
        case .subtract: return "from:subtract:"
        case .multiply: return "multiply:by:"
        case .divide: return "divide:by:"
        case .power: return "raise:toPower:"
        case .bitwiseAnd: return "bitwiseAnd:with:"
        case .bitwiseOr: return "bitwiseOr:with:"
        case .bitwiseXor: return "bitwiseXor:with:"
        case .leftShift: return "leftshift:by:"
        case .rightShift: return "rightshift:by:"
        }
    }
}

public enum UnaryOperator: String, Sendable, Equatable {
    case negate = "-"
    case bitwiseNot = "~"
}

public enum SetOperator: String, Sendable, Equatable, CaseIterable {
    case union = "UNION"
    case intersect = "INTERSECT"
    case minus = "MINUS"
}
