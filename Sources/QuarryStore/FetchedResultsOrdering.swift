// Ordering for the fetched-results controller: reading sort keys and the
// section key path off objects in memory, comparing keys exactly as SQL
// orders rows, and the text of a section name. Incremental tracking places
// a changed object by binary search on these keys, so the order here must
// be the order `Context.fetch` returns: SQLite's (`SortOrder`: NULL first,
// numbers, then text by UTF-8 bytes) with ties broken by primary key and
// unsaved objects after saved ones in insertion order (`insertionOrder`).
//
// Text keys are compared in NFC, as the store keeps text (and as
// `quarry_fold` returns folded text): an unsaved "e\u{301}" must sort where
// the saved "é" will. (`Context.sort`, for fetches with pending changes,
// compares the raw bytes instead; the two differ only for unsaved text that
// is not in NFC.)
import Foundation

/// An object's position in the sort: its key values (case-insensitive ones
/// already folded, so comparing never folds again) and its tie-breaker.
/// A tracking controller keeps one per fetched object: the first two values
/// sit inline, so that the usual one or two sort keys cost no array per object.
struct SortKey: Equatable {
    private var first: Value = .null
    private var second: Value = .null
    /// The third value on; empty (no allocation) for up to two keys.
    private var more: [Value] = []
    /// Saved objects by primary key; unsaved ones after every saved one, in
    /// the order they were made (their temporary keys count down from -1).
    var tie: Int64

    private var count = 0

    /// No value yet: `append` them in the sort descriptors' order.
    init(tie: Int64) { self.tie = tie }

    mutating func append(_ value: Value) {
        switch count {
        case 0: first = value
        case 1: second = value
        default: more.append(value)
        }
        count += 1
    }

    /// Value `i` (of as many as the sort descriptors).
    subscript(i: Int) -> Value {
        switch i {
        case 0: return first
        case 1: return second
        default: return more[i - 2]
        }
    }

    static func tie(of id: ObjectID) -> Int64 { id.isTemporary ? (1 << 62) &+ (-id.primaryKey) : id.primaryKey }
}

/// Reads a key path off objects: a plain key directly, anything else
/// (a to-one path, a function) through the evaluator.
struct KeyReader {
    let keyPath: String
    private let direct: String?
    private let compiled: CompiledExpression?
    /// The plain key resolved for the entity of the object read last: a
    /// results controller reads one key off a million objects of one entity,
    /// and looking the name up each time was most of a read.
    private let memo = ResolvedKey()

    private final class ResolvedKey {
        var info: EntityInfo?
        var property: PropertyInfo?
    }

    init(_ keyPath: String, options: EvaluationOptions) throws {
        self.keyPath = keyPath
        if keyPath.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) {
            direct = keyPath
            compiled = nil
        } else {
            direct = nil
            compiled = try Evaluator.compile(Parser.parseExpression(keyPath), options: options)
        }
    }

    func read(_ object: ManagedObject) throws -> Value {
        if let direct {
            if memo.info !== object.info {
                memo.info = object.info
                memo.property = object.info.property(direct)
            }
            // An own attribute of an object with no unsaved change: straight
            // from its slot (what `value(resolved:)` would find, with less on the way).
            if let found = memo.property, found.isOwn, object.changes.isEmpty,
               let value = object.committed.slotAttribute(found) { return value }
            return object.value(resolved: memo.property) ?? .null
        }
        return try compiled!.evaluate(.object(ObjectReference(object)))
    }
}

/// The sort descriptors of a request, ready to key and compare objects.
struct SortKeys {
    let readers: [KeyReader]
    let descriptors: [QuarrySQL.QuerySortDescriptor]
    private let folding = Folding(caseInsensitive: true, diacriticInsensitive: false)

    init(_ descriptors: [QuarrySQL.QuerySortDescriptor], options: EvaluationOptions) throws {
        self.descriptors = descriptors
        self.readers = try descriptors.map { try KeyReader($0.keyPath, options: options) }
    }

    func key(of object: ManagedObject) throws -> SortKey {
        var key = SortKey(tie: SortKey.tie(of: object.objectID))
        for (reader, d) in zip(readers, descriptors) {
            var v = try reader.read(object)
            if case .string(var s) = v {
                if d.caseInsensitive { s = folding.fold(s) }
                if !s.utf8.allSatisfy({ $0 < 0x80 }) { s = s.precomposedStringWithCanonicalMapping }
                v = .string(s)
            }
            key.append(v)
        }
        return key
    }

    /// Negative, zero or positive as `a` sorts before, with or after `b`.
    func compare(_ a: SortKey, _ b: SortKey) -> Int {
        for (i, d) in descriptors.enumerated() {
            // Already folded: compare bytes.
            let order = SortOrder.compare(a[i], b[i], caseInsensitive: false)
            if order != 0 { return d.ascending ? order : -order }
        }
        return a.tie < b.tie ? -1 : (a.tie > b.tie ? 1 : 0)
    }
}

enum SectionNames {
    /// The text of a section key path's value, as Core Data shows it: nil
    /// is "", numbers print plainly (`3`, `2.5`), booleans as 0 and 1.
    static func text(_ value: Value) -> String {
        switch value {
        case .null: return ""
        case .string(let s): return s
        case .int(let i): return String(i)
        case .bool(let b): return b ? "1" : "0"
        case .double(let d): return d == d.rounded() && abs(d) < 1e15 ? String(Int64(d)) : String(d)
        case .decimal(let d): return "\(d)"
        case .date(let d): return String(d)
        case .uuid(let u): return u.uuidString
        case .object(let r):
            if let m = r.object as? ManagedObject { return m.objectID.description }
            return "\(r.object)"
        default: return "\(value)"
        }
    }
}
