// Writes values in NSKeyedArchiver's format (what NSSecureUnarchiveFromData,
// Core Data's default transformer, reads): a binary property list whose
// `$objects` hold each archived object, references between them as UIDs,
// `$top.root` the value. Written here rather than by Foundation's own
// NSKeyedArchiver, because the Linux one shares one archived object between
// values that are `isEqual` — NSNumber(true) and NSNumber(1), 1 and 1.0 —
// so `[1, true]` came back as `[1, 1]`: a silent wrong value. Here only
// equal strings and class descriptions are shared, as Apple's archives do.
//
// Classes written, each as Apple's archiver writes it: NSString (a plain
// string object), NSNumber (a plain integer, real or boolean object), NSData
// (a plain data object), NSDate (NS.time), NSUUID (NS.uuidbytes), NSArray,
// NSSet, NSOrderedSet (NS.objects), NSDictionary (NS.keys, NS.objects), and
// NSNull for a nil inside a collection. URLs are strings in `Value`, so they
// are archived as strings.
import Foundation
import QuarrySyntax

enum KeyedArchiveWriter {
    static func archive(_ value: Value) throws -> [UInt8] {
        var builder = Builder()
        let root = try builder.add(value)
        let top: PropertyListValue = .dictionary([
            "$archiver": .string("NSKeyedArchiver"),
            "$version": .int(100_000),
            "$top": .dictionary(["root": .uid(root)]),
            "$objects": .array(builder.objects),
        ])
        return BinaryPropertyListWriter.write(top)
    }

    private struct Builder {
        /// `$objects`; index 0 is `$null`, as in every keyed archive.
        var objects: [PropertyListValue] = [.string("$null")]
        var strings: [String: Int] = [:]
        var classes: [String: Int] = [:]

        mutating func append(_ p: PropertyListValue) -> Int {
            objects.append(p)
            return objects.count - 1
        }

        mutating func classReference(_ name: String, _ hierarchy: [String]) -> PropertyListValue {
            if let i = classes[name] { return .uid(i) }
            let i = append(.dictionary(["$classname": .string(name), "$classes": .array((hierarchy + ["NSObject"]).map(PropertyListValue.string))]))
            classes[name] = i
            return .uid(i)
        }

        mutating func object(_ className: String, _ hierarchy: [String], _ fields: [String: PropertyListValue]) -> Int {
            // The object's slot comes first, then its class (as Apple's order has it).
            let i = append(.null)
            var fields = fields
            fields["$class"] = classReference(className, hierarchy)
            objects[i] = .dictionary(fields)
            return i
        }

        mutating func add(_ v: Value) throws -> Int {
            switch v {
            case .null:
                return object("NSNull", ["NSNull"], [:])
            case .bool(let b): return append(.bool(b))
            case .int(let n): return append(.int(n))
            case .double(let d): return append(.real(d))
            case .string(let s):
                if let i = strings[s] { return i }
                let i = append(.string(s))
                strings[s] = i
                return i
            case .data(let b): return append(.data(b))
            case .date(let d): return object("NSDate", ["NSDate"], ["NS.time": .real(d)])
            case .uuid(let u):
                let bytes = withUnsafeBytes(of: u.uuid) { Array($0) }
                return object("NSUUID", ["NSUUID"], ["NS.uuidbytes": .data(bytes)])
            case .array(let xs): return try collection("NSArray", ["NSArray"], xs)
            case .set(let xs): return try collection("NSSet", ["NSSet"], xs)
            case .orderedSet(let xs): return try collection("NSOrderedSet", ["NSOrderedSet"], xs)
            case .dictionary(let d):
                let i = append(.null)
                var keys: [PropertyListValue] = []
                var values: [PropertyListValue] = []
                for k in d.keys.sorted() {
                    keys.append(.uid(try add(.string(k))))
                    values.append(.uid(try add(d[k]!)))
                }
                objects[i] = .dictionary(["NS.keys": .array(keys), "NS.objects": .array(values),
                                          "$class": classReference("NSDictionary", ["NSDictionary"])])
                return i
            case .decimal, .object:
                throw ValueTransformerError.unsupported("archiving \(v.typeName) values")
            }
        }

        mutating func collection(_ name: String, _ hierarchy: [String], _ xs: [Value]) throws -> Int {
            let i = append(.null)
            var members: [PropertyListValue] = []
            for x in xs { members.append(.uid(try add(x))) }
            objects[i] = .dictionary(["NS.objects": .array(members), "$class": classReference(name, hierarchy)])
            return i
        }
    }
}

/// A binary property list (`bplist00`) of a `PropertyListValue`, UIDs included.
public enum BinaryPropertyListWriter {
    public static func write(_ root: PropertyListValue) -> [UInt8] {
        // Flattened: every node an object, children before nothing (refs by index).
        var flat: [PropertyListValue] = []
        var children: [[Int]] = []
        var dictionaryKeys: [[String]] = []
        func flatten(_ p: PropertyListValue) -> Int {
            let i = flat.count
            flat.append(p)
            children.append([])
            dictionaryKeys.append([])
            switch p {
            case .array(let xs):
                var refs: [Int] = []
                for x in xs { refs.append(flatten(x)) }
                children[i] = refs
            case .dictionary(let d):
                let keys = d.keys.sorted()
                var refs: [Int] = []
                for k in keys { refs.append(flatten(.string(k))) }
                for k in keys { refs.append(flatten(d[k]!)) }
                children[i] = refs
                dictionaryKeys[i] = keys
            default: break
            }
            return i
        }
        _ = flatten(root)
        let refSize = flat.count < 256 ? 1 : flat.count < 65_536 ? 2 : 4
        var out: [UInt8] = Array("bplist00".utf8)
        var offsets: [Int] = []
        offsets.reserveCapacity(flat.count)
        for (i, p) in flat.enumerated() {
            offsets.append(out.count)
            switch p {
            case .null: out.append(0x00)
            case .bool(let b): out.append(b ? 0x09 : 0x08)
            case .int(let n):
                if n >= 0 && n < 1 << 8 { out.append(0x10); out.append(UInt8(n)) }
                else if n >= 0 && n < 1 << 16 { out.append(0x11); bigEndian(UInt64(n), 2, &out) }
                else if n >= 0 && n < 1 << 32 { out.append(0x12); bigEndian(UInt64(n), 4, &out) }
                else { out.append(0x13); bigEndian(UInt64(bitPattern: n), 8, &out) }
            case .real(let d): out.append(0x23); bigEndian(d.bitPattern, 8, &out)
            case .date(let d): out.append(0x33); bigEndian(d.bitPattern, 8, &out)
            case .data(let b): header(0x40, b.count, &out); out += b
            case .string(let s):
                if s.utf8.allSatisfy({ $0 < 0x80 }) {
                    header(0x50, s.utf8.count, &out); out += Array(s.utf8)
                } else {
                    let units = Array(s.utf16)
                    header(0x60, units.count, &out)
                    for u in units { bigEndian(UInt64(u), 2, &out) }
                }
            case .uid(let n):
                let size = n < 1 << 8 ? 1 : n < 1 << 16 ? 2 : 4
                out.append(0x80 | UInt8(size - 1)); bigEndian(UInt64(n), size, &out)
            case .array:
                header(0xA0, children[i].count, &out)
                for r in children[i] { bigEndian(UInt64(r), refSize, &out) }
            case .dictionary:
                header(0xD0, dictionaryKeys[i].count, &out)
                for r in children[i] { bigEndian(UInt64(r), refSize, &out) }
            }
        }
        let tableOffset = out.count
        let offsetSize = tableOffset < 1 << 8 ? 1 : tableOffset < 1 << 16 ? 2 : tableOffset < 1 << 32 ? 4 : 8
        for o in offsets { bigEndian(UInt64(o), offsetSize, &out) }
        out += [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(refSize)]
        bigEndian(UInt64(flat.count), 8, &out)
        bigEndian(0, 8, &out)
        bigEndian(UInt64(tableOffset), 8, &out)
        return out
    }

    private static func header(_ marker: UInt8, _ count: Int, _ out: inout [UInt8]) {
        if count < 15 { out.append(marker | UInt8(count)); return }
        out.append(marker | 0x0F)
        if count < 1 << 8 { out.append(0x10); out.append(UInt8(count)) }
        else if count < 1 << 16 { out.append(0x11); bigEndian(UInt64(count), 2, &out) }
        else if count < 1 << 32 { out.append(0x12); bigEndian(UInt64(count), 4, &out) }
        else { out.append(0x13); bigEndian(UInt64(count), 8, &out) }
    }

    private static func bigEndian(_ n: UInt64, _ size: Int, _ out: inout [UInt8]) {
        for shift in stride(from: (size - 1) * 8, through: 0, by: -8) { out.append(UInt8(truncatingIfNeeded: n >> UInt64(shift))) }
    }
}
