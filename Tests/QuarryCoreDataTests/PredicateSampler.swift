// Random predicates for the SQL-against-memory check on real stores: simple
// clauses over an entity's stored attributes, with values drawn from its own
// rows (so they select something), nil tests, string operators, and
// relationship tests (`r == nil`, `r.@count > n`), combined with AND, OR
// and NOT. Simpler than the engine fuzzer's generator
// (QuarryStoreTests/EngineFuzzer.swift), which builds its own model; this
// one must fit whatever model the store came with.
import QuarryModel
import QuarryStore
import QuarrySyntax

enum PredicateSampler {
    static func clauses(for entity: Entity, in model: Model, objects: [StoredObject],
                        random: inout SeededRandom) -> [String] {
        var out: [String] = []
        for a in entity.allAttributes(in: model) where !a.isTransient {
            let key = a.name
            out.append("\(key) == nil")
            let values = objects.compactMap { $0.value(forKey: key) }.filter { $0 != .null }
            guard let v = values.randomElement(using: &random) else { continue }
            switch (a.type, v) {
            case (.integer16, .int), (.integer32, .int), (.integer64, .int), (.double, _), (.float, _), (.decimal, _):
                for op in ["==", "!=", "<", ">="] { out.append("\(key) \(op) \(Printer.format(v))") }
            case (.date, .date(let seconds)):
                out.append("\(key) < CAST(\(seconds), \"NSDate\")")
                out.append("\(key) >= CAST(\(seconds), \"NSDate\")")
            case (.boolean, _):
                out.append("\(key) == YES")
                out.append("\(key) == NO")
            case (.string, .string(let s)):
                let literal = Printer.format(.string(s))
                out.append("\(key) == \(literal)")
                out.append("\(key) < \(literal)")
                let prefix = String(s.prefix(2))
                out.append("\(key) BEGINSWITH[c] \(Printer.format(.string(prefix)))")
                out.append("\(key) CONTAINS \(Printer.format(.string(String(s.dropFirst().prefix(3)))))")
            default:
                continue
            }
        }
        for r in entity.allRelationships(in: model) where !r.isTransient {
            if r.isToMany {
                out.append("\(r.name).@count > \(Int.random(in: 0...2, using: &random))")
            } else {
                out.append("\(r.name) == nil")
                out.append("\(r.name) != nil")
            }
        }
        return out
    }

    static func combine(_ clauses: [String], random: inout SeededRandom) -> String {
        var text = clauses.randomElement(using: &random)!
        for _ in 0..<Int.random(in: 0...2, using: &random) {
            let other = clauses.randomElement(using: &random)!
            text = "(\(text)) \(Bool.random(using: &random) ? "AND" : "OR") (\(other))"
        }
        return Bool.random(using: &random) && Bool.random(using: &random) ? "NOT (\(text))" : text
    }
}
