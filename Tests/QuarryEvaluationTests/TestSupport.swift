// Helpers shared by the evaluator's tests: parse + compile + evaluate in one
// call, and a small JSON reader for the conformance corpus (Foundation's
// JSONSerialization cannot tell `1` from `true` on Linux).
import Foundation
@testable import QuarryEvaluation

typealias QPredicate = QueryPredicate
typealias QExpression = QueryExpression

/// Parses and evaluates a predicate.
func holds(_ format: String, _ object: Value = .null, args: [Value]? = nil, vars: [String: Value] = [:],
           options: EvaluationOptions = .init()) throws -> Bool {
    let p = try Parser.parsePredicate(format, arguments: args ?? [])
    return try Evaluator.compile(p, options: options).evaluate(object, variables: vars)
}

/// Parses and evaluates an expression.
func value(_ format: String, _ object: Value = .null, args: [Value]? = nil, vars: [String: Value] = [:],
           options: EvaluationOptions = .init()) throws -> Value {
    let e = try Parser.parseExpression(format, arguments: args ?? [])
    return try Evaluator.compile(e, options: options).evaluate(object, variables: vars)
}

/// The diagnostic a predicate raises at compile or evaluation time, if any.
func predicateError(_ format: String, _ object: Value = .null, args: [Value]? = nil, vars: [String: Value] = [:],
                    options: EvaluationOptions = .init()) -> Diagnostic? {
    do throws(Diagnostic) {
        let p = try Parser.parsePredicate(format, arguments: args ?? [])
        _ = try Evaluator.compile(p, options: options).evaluate(object, variables: vars)
        return nil
    } catch {
        return error
    }
}

func expressionError(_ format: String, _ object: Value = .null, vars: [String: Value] = [:],
                     options: EvaluationOptions = .init()) -> Diagnostic? {
    do throws(Diagnostic) {
        let e = try Parser.parseExpression(format, arguments: [])
        _ = try Evaluator.compile(e, options: options).evaluate(object, variables: vars)
        return nil
    } catch {
        return error
    }
}

/// Language equality, for asserting results of mixed numeric types.
func same(_ a: Value, _ b: Value) -> Bool { Compare.equal(a, b) }

func dict(_ pairs: KeyValuePairs<String, Value>) -> Value {
    .dictionary(Dictionary(pairs.map { ($0.0, $0.1) }, uniquingKeysWith: { a, _ in a }))
}

/// A host object reached through KeyValueAccessible.
final class Person: KeyValueAccessible, @unchecked Sendable {
    let fields: [String: Value]
    init(_ fields: [String: Value]) { self.fields = fields }
    func value(forKey key: String) -> Value? { fields[key] }
}

// MARK: - A tiny JSON reader

enum JSON: Equatable {
    case null, bool(Bool), int(Int64), double(Double), string(String), array([JSON]), object([(String, JSON)])

    static func == (a: JSON, b: JSON) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case (.bool(let x), .bool(let y)): return x == y
        case (.int(let x), .int(let y)): return x == y
        case (.double(let x), .double(let y)): return x == y
        case (.string(let x), .string(let y)): return x == y
        case (.array(let x), .array(let y)): return x == y
        case (.object(let x), .object(let y)): return x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: return false
        }
    }

    subscript(_ key: String) -> JSON? {
        if case .object(let members) = self { return members.first { $0.0 == key }?.1 }
        return nil
    }

    var string: String? { if case .string(let s) = self { return s }; return nil }

    static func parse(_ text: String) -> JSON? {
        var r = JSONReader(bytes: Array(text.utf8))
        return r.value()
    }
}

struct JSONReader {
    let bytes: [UInt8]
    var i = 0

    mutating func skip() { while i < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[i]) { i += 1 } }

    mutating func value() -> JSON? {
        skip()
        guard i < bytes.count else { return nil }
        switch bytes[i] {
        case UInt8(ascii: "{"):
            i += 1
            var members: [(String, JSON)] = []
            skip()
            if bytes[i] == UInt8(ascii: "}") { i += 1; return .object(members) }
            while true {
                skip()
                guard let k = string() else { return nil }
                skip(); i += 1 // ':'
                guard let v = value() else { return nil }
                members.append((k, v))
                skip()
                if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
                i += 1
                return .object(members)
            }
        case UInt8(ascii: "["):
            i += 1
            var items: [JSON] = []
            skip()
            if bytes[i] == UInt8(ascii: "]") { i += 1; return .array(items) }
            while true {
                guard let v = value() else { return nil }
                items.append(v)
                skip()
                if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
                i += 1
                return .array(items)
            }
        case UInt8(ascii: "\""):
            return string().map(JSON.string)
        case UInt8(ascii: "t"): i += 4; return .bool(true)
        case UInt8(ascii: "f"): i += 5; return .bool(false)
        case UInt8(ascii: "n"): i += 4; return .null
        default:
            let start = i
            var isDouble = false
            while i < bytes.count, "0123456789+-.eE".utf8.contains(bytes[i]) {
                if "eE.".utf8.contains(bytes[i]) { isDouble = true }
                i += 1
            }
            let text = String(decoding: bytes[start..<i], as: UTF8.self)
            if !isDouble, let n = Int64(text) { return .int(n) }
            return Double(text).map(JSON.double)
        }
    }

    mutating func string() -> String? {
        guard bytes[i] == UInt8(ascii: "\"") else { return nil }
        i += 1
        var out: [UInt8] = []
        var pendingHigh: UInt32? = nil
        while i < bytes.count {
            let c = bytes[i]
            if c == UInt8(ascii: "\"") { i += 1; return String(decoding: out, as: UTF8.self) }
            if c == UInt8(ascii: "\\") {
                i += 1
                let e = bytes[i]
                i += 1
                switch e {
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "u"):
                    let hex = String(decoding: bytes[i..<i + 4], as: UTF8.self)
                    i += 4
                    var code = UInt32(hex, radix: 16) ?? 0xFFFD
                    if (0xD800..<0xDC00).contains(code) { pendingHigh = code; continue }
                    if (0xDC00..<0xE000).contains(code), let high = pendingHigh {
                        code = 0x10000 + ((high - 0xD800) << 10) + (code - 0xDC00)
                        pendingHigh = nil
                    }
                    out.append(contentsOf: Array(String(Character(Unicode.Scalar(code) ?? "\u{FFFD}")).utf8))
                default: out.append(e)
                }
                continue
            }
            out.append(c)
            i += 1
        }
        return nil
    }
}

/// Thrown for corpus values the evaluator's Value cannot represent
/// ($class, $url, $ref, …): the case is skipped.
struct Unsupported: Error { let what: String }

/// Shared objects of one corpus case: `{"$ref": "name", …fields}`.
final class RefObject: KeyValueAccessible, @unchecked Sendable {
    var fields: [String: Value] = [:]
    func value(forKey key: String) -> Value? { fields[key] }
}

final class RefTable {
    var objects: [String: RefObject] = [:]
    func object(_ name: String) -> RefObject {
        if let o = objects[name] { return o }
        let o = RefObject()
        objects[name] = o
        return o
    }
}

/// The corpus encoding (peer-tests README) → Value.
func decodeValue(_ j: JSON, refs: RefTable = RefTable()) throws -> Value {
    let decodeValue = { (x: JSON) throws -> Value in try QuarryEvaluationTests.decodeValue(x, refs: refs) }
    switch j {
    case .null: return .null
    case .bool(let b): return .bool(b)
    case .int(let i): return .int(i)
    case .double(let d): return .double(d)
    case .string(let s): return .string(s)
    case .array(let items): return .array(try items.map(decodeValue))
    case .object(let members):
        if members.count == 1 {
            let (tag, payload) = members[0]
            switch (tag, payload) {
            case ("$date", .int(let i)): return .date(Double(i))
            case ("$date", .double(let d)): return .date(d)
            case ("$set", .array(let items)): return Collections.makeSet(try items.map(decodeValue))
            case ("$orderedSet", .array(let items)): return .orderedSet(try items.map(decodeValue))
            case ("$uuid", .string(let s)): return .uuid(UUID(uuidString: s)!)
            case ("$data", .string(let s)): return .data([UInt8](Data(base64Encoded: s)!))
            case ("$null", _): return .null
            case ("$url", .string(let s)): return .string(s)
            default: break
            }
        }
        if case .string(let name)? = members.first(where: { $0.0 == "$ref" })?.1 {
            let o = refs.object(name)
            for (k, v) in members where k != "$ref" { o.fields[k] = try decodeValue(v) }
            return .object(ObjectReference(o))
        }
        if let tagged = members.first(where: { $0.0.hasPrefix("$") }) { throw Unsupported(what: tagged.0) }
        var d: [String: Value] = [:]
        for (k, v) in members { d[k] = try decodeValue(v) }
        return .dictionary(d)
    }
}
