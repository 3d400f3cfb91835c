// The keyed-archive format of `NSSecureUnarchiveFromData` (Core Data's
// default transformer for transformable attributes) read into values: a
// binary property list whose `$objects` hold every object once, references
// between them as UIDs, `$top.root` the value. The common Foundation classes
// are understood — strings, numbers (inline integers, reals, booleans),
// arrays, ordered sets, sets, dictionaries with string keys, dates, data,
// URLs and UUIDs; any other class is an error naming it, never a guess.
// Writing: KeyedArchiveWriter.swift (the same format, NSNull for a nil member).
import Foundation
import QuarrySyntax

public enum KeyedArchiveValues {
    /// Reads an archive made by NSKeyedArchiver.
    public static func decode(_ bytes: [UInt8]) throws -> Value {
        let plist = try BinaryPropertyList.read(bytes)
        guard let objects = plist["$objects"]?.array, case .uid(let top)? = plist["$top"]?["root"] else {
            throw ValueTransformerError.unreadable("not a keyed archive (no $objects or $top.root)")
        }
        return try Decoder(objects: objects).value(.uid(top), depth: 0)
    }

    private struct Decoder {
        let objects: [PropertyListValue]

        func value(_ p: PropertyListValue, depth: Int) throws -> Value {
            guard depth < 200 else { throw ValueTransformerError.unreadable("a keyed archive nested more than 200 deep") }
            switch p {
            case .uid(let i):
                guard i < objects.count else { throw ValueTransformerError.unreadable("a reference to object \(i) of \(objects.count)") }
                if objects[i] == .string("$null") { return .null }
                return try value(objects[i], depth: depth + 1)
            case .null: return .null
            case .bool(let b): return .bool(b)
            case .int(let n): return .int(n)
            case .real(let d): return .double(d)
            case .date(let d): return .date(d)
            case .data(let d): return .data(d)
            case .string(let s): return .string(s)
            case .array(let items): return .array(try items.map { try value($0, depth: depth + 1) })
            case .dictionary(let fields):
                guard let classRef = fields["$class"] else { throw ValueTransformerError.unreadable("an archived object without $class") }
                guard case .uid(let c) = classRef, c < objects.count, let name = objects[c]["$classname"]?.string else {
                    throw ValueTransformerError.unreadable("an archived object whose class cannot be read")
                }
                return try object(name, fields, depth: depth)
            }
        }

        func members(_ fields: [String: PropertyListValue], _ key: String, depth: Int) throws -> [Value] {
            try (fields[key]?.array ?? []).map { try value($0, depth: depth + 1) }
        }

        func object(_ name: String, _ fields: [String: PropertyListValue], depth: Int) throws -> Value {
            switch name {
            case "NSNull": return .null
            case "NSArray", "NSMutableArray": return .array(try members(fields, "NS.objects", depth: depth))
            case "NSOrderedSet", "NSMutableOrderedSet": return .orderedSet(try members(fields, "NS.objects", depth: depth))
            case "NSSet", "NSMutableSet": return .set(try members(fields, "NS.objects", depth: depth))
            case "NSDictionary", "NSMutableDictionary":
                let keys = try members(fields, "NS.keys", depth: depth)
                let values = try members(fields, "NS.objects", depth: depth)
                guard keys.count == values.count else { throw ValueTransformerError.unreadable("a dictionary with \(keys.count) keys and \(values.count) values") }
                var d: [String: Value] = [:]
                for (k, v) in zip(keys, values) {
                    guard case .string(let s) = k else { throw ValueTransformerError.unsupported("a dictionary key that is not a string (\(k))") }
                    d[s] = v
                }
                return .dictionary(d)
            case "NSString", "NSMutableString":
                if case .string(let s)? = fields["NS.string"] { return .string(s) }
                if case .data(let b)? = fields["NS.bytes"], let s = String(bytes: b, encoding: .utf8) { return .string(s) }
                throw ValueTransformerError.unreadable("an NSString without NS.string")
            case "NSDate":
                guard let t = fields["NS.time"] else { throw ValueTransformerError.unreadable("an NSDate without NS.time") }
                switch t {
                case .real(let d), .date(let d): return .date(d)
                case .int(let n): return .date(Double(n))
                default: throw ValueTransformerError.unreadable("an NSDate whose NS.time is not a number")
                }
            case "NSData", "NSMutableData":
                guard case .data(let b)? = fields["NS.data"] else { throw ValueTransformerError.unreadable("an NSData without NS.data") }
                return .data(b)
            case "NSURL":
                guard case .string(let s)? = try fields["NS.relative"].map({ try resolve($0, depth: depth) }) else {
                    throw ValueTransformerError.unreadable("an NSURL without NS.relative")
                }
                if case .string(let base)? = try fields["NS.base"].map({ try resolve($0, depth: depth) }), let url = URL(string: s, relativeTo: URL(string: base)) {
                    return .string(url.absoluteString)
                }
                return .string(s)
            case "NSUUID":
                guard case .data(let b)? = fields["NS.uuidbytes"], b.count == 16 else { throw ValueTransformerError.unreadable("an NSUUID without 16 NS.uuidbytes") }
                return .uuid(UUID(uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15])))
            default:
                throw ValueTransformerError.unsupported("archived objects of class \(name)")
            }
        }

        /// A field's value as a property-list scalar (references followed).
        func resolve(_ p: PropertyListValue, depth: Int) throws -> PropertyListValue {
            if case .uid(let i) = p, i < objects.count { return objects[i] }
            return p
        }
    }

    /// The classes `NSSecureUnarchiveFromData` decodes (its
    /// `allowedTopLevelClasses`, which also bound what a collection may hold).
    public static let secureClasses = "NSArray, NSDictionary, NSSet, NSString, NSNumber, NSDate, NSData, NSURL, NSUUID and NSNull"

    /// Throws when `value` holds what `NSSecureUnarchiveFromData` would not
    /// decode — an ordered set, archived as NSOrderedSet — so that nothing
    /// is written that Core Data could not read back.
    public static func checkSecureClasses(_ value: Value) throws {
        switch value {
        case .orderedSet:
            throw ValueTransformerError.unsupported("an ordered set with NSSecureUnarchiveFromData, which decodes only \(secureClasses) "
                + "(Core Data could not read it back); use an array, or NSKeyedUnarchiveFromData")
        case .array(let items), .set(let items):
            for item in items { try checkSecureClasses(item) }
        case .dictionary(let entries):
            for item in entries.values { try checkSecureClasses(item) }
        default:
            return
        }
    }

    /// An archive of `value` in NSKeyedArchiver's format that
    /// `NSSecureUnarchiveFromData` and `decode` read back (KeyedArchiveWriter.swift).
    public static func encode(_ value: Value) throws -> [UInt8] {
        try KeyedArchiveWriter.archive(value)
    }
}
