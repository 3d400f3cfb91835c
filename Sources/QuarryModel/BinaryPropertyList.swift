// A reader of Apple's binary property lists (`bplist00`), the format of a
// Core Data store's metadata (`Z_METADATA.Z_PLIST`) and of its cached model
// (`Z_MODELCACHE`, inside DEFLATE). Foundation's PropertyListSerialization
// on Linux does not hand out the keyed archiver's UIDs, which the cached
// model is made of, so this reads the format itself: a header, objects, an
// offset table and a 32-byte trailer. Every offset and reference is checked
// against the data: a damaged blob is an error, never a crash or a loop
// (objects nest through references, so depth is bounded too).
import Foundation

/// One value of a property list. `uid` is a keyed archive's reference.
public indirect enum PropertyListValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case int(Int64)
    case real(Double)
    case date(Double)
    case data([UInt8])
    case string(String)
    case uid(Int)
    case array([PropertyListValue])
    case dictionary([String: PropertyListValue])

    public subscript(key: String) -> PropertyListValue? {
        if case .dictionary(let d) = self { return d[key] }
        return nil
    }
    public var string: String? { if case .string(let s) = self { return s } else { return nil } }
    public var int: Int64? {
        switch self {
        case .int(let n): return n
        case .bool(let b): return b ? 1 : 0
        default: return nil
        }
    }
    public var bool: Bool? {
        switch self {
        case .bool(let b): return b
        case .int(let n): return n != 0
        default: return nil
        }
    }
    public var array: [PropertyListValue]? { if case .array(let a) = self { return a } else { return nil } }
}

public struct PropertyListError: Error, CustomStringConvertible, Equatable {
    public let message: String
    public var description: String { "damaged binary property list: \(message)" }
}

public enum BinaryPropertyList {
    /// Reads a whole `bplist00` document.
    public static func read(_ bytes: [UInt8]) throws(PropertyListError) -> PropertyListValue {
        var reader = try Reader(bytes)
        return try reader.object(reader.top, depth: 0)
    }

    private struct Reader {
        let bytes: [UInt8]
        let offsetSize: Int, refSize: Int, count: Int, top: Int, tableStart: Int
        /// Objects decoded so far: shared references could otherwise make a
        /// small file expand exponentially.
        var visits = 0

        init(_ bytes: [UInt8]) throws(PropertyListError) {
            guard bytes.count >= 40, Array(bytes[0..<8]) == Array("bplist00".utf8) else {
                throw PropertyListError(message: "no bplist00 header")
            }
            self.bytes = bytes
            let t = bytes.count - 32
            offsetSize = Int(bytes[t + 6])
            refSize = Int(bytes[t + 7])
            let count = Self.uint(bytes, t + 8, 8), top = Self.uint(bytes, t + 16, 8), table = Self.uint(bytes, t + 24, 8)
            guard (1...8).contains(offsetSize), (1...8).contains(refSize), count > 0, count < bytes.count,
                  top < count, table < t, table + count * offsetSize <= t else {
                throw PropertyListError(message: "bad trailer")
            }
            self.count = count
            self.top = top
            self.tableStart = table
        }

        static func uint(_ b: [UInt8], _ at: Int, _ size: Int) -> Int {
            var v: UInt64 = 0
            for i in 0..<size { v = (v << 8) | UInt64(b[at + i]) }
            return Int(truncatingIfNeeded: min(v, UInt64(Int.max)))
        }

        func checked(_ at: Int, _ size: Int) throws(PropertyListError) -> Int {
            guard at >= 0, size >= 0, at <= bytes.count - 32, size <= bytes.count - 32 - at else {
                throw PropertyListError(message: "object runs past the end")
            }
            return at
        }

        func offset(of ref: Int) throws(PropertyListError) -> Int {
            guard ref >= 0, ref < count else { throw PropertyListError(message: "reference \(ref) out of range") }
            return Self.uint(bytes, tableStart + ref * offsetSize, offsetSize)
        }

        /// The length of an object and where its payload starts: lengths of
        /// 15 and more follow the marker as an integer object.
        func length(_ marker: UInt8, at: Int) throws(PropertyListError) -> (Int, Int) {
            let low = Int(marker & 0x0F)
            if low != 0x0F { return (low, at + 1) }
            let intMarker = bytes[try checked(at + 1, 1)]
            guard intMarker & 0xF0 == 0x10 else { throw PropertyListError(message: "bad length") }
            let size = 1 << Int(intMarker & 0x0F)
            guard size <= 8 else { throw PropertyListError(message: "bad length") }
            let n = Self.uint(bytes, try checked(at + 2, size), size)
            return (n, at + 2 + size)
        }

        mutating func object(_ ref: Int, depth: Int) throws(PropertyListError) -> PropertyListValue {
            guard depth < 512 else { throw PropertyListError(message: "nested too deep") }
            visits += 1
            guard visits <= 4 * count + 1_000 else { throw PropertyListError(message: "too many shared references") }
            let at = try checked(try offset(of: ref), 1)
            let marker = bytes[at]
            switch marker >> 4 {
            case 0x0:
                switch marker {
                case 0x08: return .bool(false)
                case 0x09: return .bool(true)
                default: return .null
                }
            case 0x1:
                let size = 1 << Int(marker & 0x0F)
                guard size <= 16 else { throw PropertyListError(message: "bad integer") }
                // 16-byte integers hold a 64-bit value in their low half.
                let start = try checked(at + 1, size) + max(0, size - 8)
                let raw = UInt64(Self.uint(bytes, start, min(size, 8)))
                let width = min(size, 8)
                // 1, 2 and 4-byte integers are unsigned; 8-byte ones signed.
                if width == 8 {
                    var v: UInt64 = 0
                    for i in 0..<8 { v = (v << 8) | UInt64(bytes[start + i]) }
                    return .int(Int64(bitPattern: v))
                }
                return .int(Int64(raw))
            case 0x2:
                let size = 1 << Int(marker & 0x0F)
                var v: UInt64 = 0
                for i in 0..<size { v = (v << 8) | UInt64(bytes[try checked(at + 1, size) + i]) }
                if size == 4 { return .real(Double(Float(bitPattern: UInt32(truncatingIfNeeded: v)))) }
                guard size == 8 else { throw PropertyListError(message: "bad real") }
                return .real(Double(bitPattern: v))
            case 0x3:
                var v: UInt64 = 0
                for i in 0..<8 { v = (v << 8) | UInt64(bytes[try checked(at + 1, 8) + i]) }
                return .date(Double(bitPattern: v))
            case 0x4:
                let (n, start) = try length(marker, at: at)
                return .data(Array(bytes[try checked(start, n)..<(start + n)]))
            case 0x5:
                let (n, start) = try length(marker, at: at)
                return .string(String(decoding: bytes[try checked(start, n)..<(start + n)], as: UTF8.self))
            case 0x6:
                let (n, start) = try length(marker, at: at)
                guard n <= (bytes.count - 32) / 2 else { throw PropertyListError(message: "bad string length") }
                let s = try checked(start, n * 2)
                var units: [UInt16] = []
                units.reserveCapacity(n)
                for i in 0..<n { units.append(UInt16(bytes[s + 2 * i]) << 8 | UInt16(bytes[s + 2 * i + 1])) }
                return .string(String(decoding: units, as: UTF16.self))
            case 0x8:
                let size = Int(marker & 0x0F) + 1
                return .uid(Self.uint(bytes, try checked(at + 1, size), size))
            case 0xA:
                let (n, start) = try length(marker, at: at)
                let s = try checked(start, n * refSize)
                var items: [PropertyListValue] = []
                for i in 0..<n { items.append(try object(Self.uint(bytes, s + i * refSize, refSize), depth: depth + 1)) }
                return .array(items)
            case 0xD:
                let (n, start) = try length(marker, at: at)
                let s = try checked(start, 2 * n * refSize)
                var d: [String: PropertyListValue] = [:]
                for i in 0..<n {
                    let key = try object(Self.uint(bytes, s + i * refSize, refSize), depth: depth + 1)
                    guard case .string(let k) = key else { throw PropertyListError(message: "dictionary key is not a string") }
                    d[k] = try object(Self.uint(bytes, s + (n + i) * refSize, refSize), depth: depth + 1)
                }
                return .dictionary(d)
            default:
                throw PropertyListError(message: String(format: "unknown object marker 0x%02X", marker))
            }
        }
    }
}
