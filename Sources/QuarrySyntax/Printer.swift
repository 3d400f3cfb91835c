// The canonical printer: any tree back to a format string in Apple's
// `predicateFormat` style — upper-case keywords, double-quoted strings with
// escapes, options in brackets, `==` for equality — with the fewest
// parentheses that keep the meaning, except that a compound inside a
// compound is always parenthesised, as Apple prints it.
//
// The contract: for every tree the parser produces, parsing the printed text
// gives the same tree. Booleans therefore print as YES/NO (Apple prints 1/0,
// losing the type), dates as CAST(seconds, "NSDate").
import Foundation

/// Prints predicates and expressions in canonical form.
///
/// ```swift
/// Printer.format(try Parser.parsePredicate("a=1 and not b<2"))   // a == 1 AND NOT b < 2
/// ```
public enum Printer {
    // Each `format` starts with room for a typical predicate, so that the
    // text is not reallocated as it grows; pieces are appended one by one
    // rather than joined with `+` first, which would build each join.

    public static func format(_ predicate: QueryPredicate) -> String {
        var out = ""
        out.reserveCapacity(64)
        write(predicate, to: &out)
        return out
    }

    public static func format(_ expression: QueryExpression) -> String {
        var out = ""
        out.reserveCapacity(64)
        write(expression, minimumPrecedence: Precedence.lowest, to: &out)
        return out
    }

    public static func format(_ value: Value) -> String {
        var out = ""
        write(value, to: &out)
        return out
    }

    // MARK: - Predicates

    static func write(_ p: QueryPredicate, to out: inout String) {
        switch p.kind {
        case .constant(let b):
            out += b ? "TRUEPREDICATE" : "FALSEPREDICATE"
        case .not(let inner):
            out += "NOT "
            writeOperand(inner, to: &out)
        case .and(let parts):
            writeCompound(parts, " AND ", to: &out)
        case .or(let parts):
            writeCompound(parts, " OR ", to: &out)
        case .comparison(let c):
            write(c, to: &out)
        }
    }

    static func writeCompound(_ parts: [QueryPredicate], _ joiner: String, to out: inout String) {
        for (i, part) in parts.enumerated() {
            if i > 0 { out += joiner }
            writeOperand(part, to: &out)
        }
    }

    /// A compound inside NOT, AND or OR gets parentheses.
    static func writeOperand(_ p: QueryPredicate, to out: inout String) {
        switch p.kind {
        case .and, .or:
            out += "("
            write(p, to: &out)
            out += ")"
        default:
            write(p, to: &out)
        }
    }

    static func write(_ c: Comparison, to out: inout String) {
        if c.modifier != .direct {
            out += c.modifier.rawValue
            out += " "
        }
        write(c.lhs, minimumPrecedence: Precedence.comparisonOperand, to: &out)
        out += " "
        out += c.op.rawValue
        if !c.options.isEmpty {
            out += "["
            out += c.options.letters
            out += "]"
        }
        out += " "
        write(c.rhs, minimumPrecedence: Precedence.comparisonOperand, to: &out)
    }
}

// `print(predicate)` and string interpolation give the canonical form (what
// `Printer.format` gives), not the tree's structure: what a user wrote, tidied.
extension QueryPredicate: CustomStringConvertible {
    public var description: String { Printer.format(self) }
}

extension QueryExpression: CustomStringConvertible {
    public var description: String { Printer.format(self) }
}
