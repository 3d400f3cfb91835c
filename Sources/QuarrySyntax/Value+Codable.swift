// Value through Codable, so a Value can sit in a user's Codable type and go
// through JSONEncoder/PropertyListEncoder and back unchanged. The form is the
// machine interface's (INTERFACES.md, `Value+JSON.swift` in QuarryShell):
// plain JSON for what JSON has, one-member tagged objects for what it lacks
// — {"$date": S}, {"$data": "base64"}, {"$uuid": "…"}, {"$set": […]},
// {"$orderedSet": […]}, {"$decimal": "text"} — plus two that only a lossless
// round trip through a generic encoder needs: {"$double": "1.0"} for a double
// an encoder could write as an integer (or that JSON cannot write at all:
// NaN, infinities, -0.0), and {"$dictionary": {…}} around a dictionary whose
// single key starts with `$`, which would otherwise read back as a tag.
// Host objects (`.object`) are references, not data: encoding one throws.
import Foundation

extension Value: Codable {
    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ s: String) { stringValue = s }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var c = encoder.singleValueContainer(); try c.encodeNil()
        case .bool(let b):
            var c = encoder.singleValueContainer(); try c.encode(b)
        case .int(let i):
            var c = encoder.singleValueContainer(); try c.encode(i)
        case .double(let d):
            if d.isFinite && d.rounded() != d {
                var c = encoder.singleValueContainer(); try c.encode(d)
            } else {
                var c = encoder.container(keyedBy: Key.self); try c.encode("\(d)", forKey: Key("$double"))
            }
        case .decimal(let d):
            var c = encoder.container(keyedBy: Key.self); try c.encode(d.description, forKey: Key("$decimal"))
        case .string(let s):
            var c = encoder.singleValueContainer(); try c.encode(s)
        case .date(let s):
            var c = encoder.container(keyedBy: Key.self); try c.encode(s, forKey: Key("$date"))
        case .data(let bytes):
            var c = encoder.container(keyedBy: Key.self); try c.encode(Data(bytes).base64EncodedString(), forKey: Key("$data"))
        case .uuid(let u):
            var c = encoder.container(keyedBy: Key.self); try c.encode(u.uuidString, forKey: Key("$uuid"))
        case .array(let items):
            var c = encoder.singleValueContainer(); try c.encode(items)
        case .orderedSet(let items):
            var c = encoder.container(keyedBy: Key.self); try c.encode(items, forKey: Key("$orderedSet"))
        case .set(let items):
            var c = encoder.container(keyedBy: Key.self); try c.encode(items, forKey: Key("$set"))
        case .dictionary(let d):
            if d.count == 1, d.keys.first!.hasPrefix("$") {
                var c = encoder.container(keyedBy: Key.self); try c.encode(d, forKey: Key("$dictionary"))
            } else {
                var c = encoder.container(keyedBy: Key.self)
                for key in d.keys.sorted() { try c.encode(d[key]!, forKey: Key(key)) }
            }
        case .object(let ref):
            throw EncodingError.invalidValue(self, .init(codingPath: encoder.codingPath,
                debugDescription: "a host object (\(type(of: ref.object))) is a reference, not data: encode its values instead"))
        }
    }

    public init(from decoder: any Decoder) throws {
        if let c = try? decoder.singleValueContainer() {
            if c.decodeNil() { self = .null; return }
            if let b = try? c.decode(Bool.self) { self = .bool(b); return }
            if let i = try? c.decode(Int64.self) { self = .int(i); return }
            if let d = try? c.decode(Double.self) { self = .double(d); return }
            if let s = try? c.decode(String.self) { self = .string(s); return }
            if let items = try? c.decode([Value].self) { self = .array(items); return }
        }
        let c = try decoder.container(keyedBy: Key.self)
        let keys = c.allKeys
        if keys.count == 1, let tag = keys.first, tag.stringValue.hasPrefix("$") {
            func bad(_ why: String) -> DecodingError {
                .dataCorruptedError(forKey: tag, in: c, debugDescription: "\(tag.stringValue): \(why)")
            }
            switch tag.stringValue {
            case "$date": self = .date(try c.decode(Double.self, forKey: tag)); return
            case "$double":
                guard let d = Double(try c.decode(String.self, forKey: tag)) else { throw bad("not a number") }
                self = .double(d); return
            case "$decimal":
                guard let d = Decimal(string: try c.decode(String.self, forKey: tag), locale: Locale(identifier: "en_US_POSIX")) else { throw bad("not a decimal") }
                self = .decimal(d); return
            case "$data":
                guard let data = Data(base64Encoded: try c.decode(String.self, forKey: tag)) else { throw bad("not base64") }
                self = .data([UInt8](data)); return
            case "$uuid":
                guard let u = UUID(uuidString: try c.decode(String.self, forKey: tag)) else { throw bad("not a UUID") }
                self = .uuid(u); return
            case "$set":
                var unique: [Value] = []
                for item in try c.decode([Value].self, forKey: tag) where !unique.contains(item) { unique.append(item) }
                self = .set(unique); return
            case "$orderedSet": self = .orderedSet(try c.decode([Value].self, forKey: tag)); return
            case "$dictionary": self = .dictionary(try c.decode([String: Value].self, forKey: tag)); return
            case "$null": self = .null; return
            default: break  // an ordinary one-key dictionary
            }
        }
        var d: [String: Value] = [:]
        for key in keys { d[key.stringValue] = try c.decode(Value.self, forKey: key) }
        self = .dictionary(d)
    }
}
