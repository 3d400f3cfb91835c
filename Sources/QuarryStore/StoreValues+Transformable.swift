// Transformable attributes in Quarry stores: a value set on one is encoded
// by the transformer its model names (`valueTransformerName`, Core Data's
// NSSecureUnarchiveFromData when none: ValueTransformerRegistry.swift) into
// the bytes its BLOB / BYTEA column keeps, and decoded when a row is read.
// nil stays NULL. Every write path reaches `StoreValues.storable(_:for:…)`,
// which encodes; every object read path streams its rows through
// `SQLStore.streamRows(…, decoding:)`, which decodes the transformable
// columns of each row before the row is copied into objects (a `DecodedRow`
// stands in for the driver's row; rows of entities without transformables
// are not touched at all).
//
// A transformer name nobody registered — an app's own (`ColorTransformer`,
// …), which cannot exist here, or a misspelling — does not stop the store
// from opening (14 of the corpus's real app models name one): it is
// registered as opaque (`registerOpaqueTransformers`), so those columns
// read, and export, as the bytes the app wrote, and writing anything but
// bytes fails at that first use with the unknown-transformer error (with
// the closest registered name). Bytes a registered transformer cannot read
// are an error naming the attribute and row, never a nil or the raw bytes.
// A Core Data store opened read-only decodes its transformable columns the
// same way.
import Foundation

/// A transformable value that could not be written or read.
public enum TransformableError: Error, Equatable, CustomStringConvertible {
    /// The attribute's transformer refused the value (a date in JSON, …).
    case cannotEncode(entity: String, key: String, transformer: String, reason: String)
    /// The stored bytes are not what the transformer reads.
    case cannotDecode(entity: String, key: String, transformer: String, primaryKey: Int64?, reason: String)

    public var description: String {
        switch self {
        case .cannotEncode(let e, let k, let t, let why):
            return "\(e).\(k) is transformable (\(t)) and its transformer cannot encode the value: \(why); nothing was written"
        case .cannotDecode(let e, let k, let t, let pk, let why):
            return "\(e).\(k)" + (pk.map { " of row \($0)" } ?? "") + " cannot be decoded by its transformer \(t): \(why)"
        }
    }
}

extension TransformableError: QuarryError {
    public var report: ErrorReport {
        switch self {
        case .cannotEncode: return ErrorReport(code: DiagnosticCode.bindTypeMismatch.rawValue, message: description)
        case .cannotDecode: return ErrorReport(code: "R001", message: description)
        }
    }
}

extension StoreValues {
    /// The name an attribute's transformer goes by (the default when it names none).
    static func transformerName(_ attribute: Attribute) -> String {
        attribute.valueTransformerName ?? ValueTransformerRegistry.defaultName
    }

    /// The stored bytes of a transformable attribute's value (NULL for nil).
    static func transformed(_ v: Value, for attribute: Attribute, entity: String) throws -> Value {
        if v.isNull { return .null }
        let name = transformerName(attribute)
        let transformer = try ValueTransformerRegistry.shared.transformer(named: name, attribute: "\(entity).\(attribute.name)")
        do {
            return .data(try transformer.encode(v))
        } catch {
            throw TransformableError.cannotEncode(entity: entity, key: attribute.name, transformer: name, reason: "\(error)")
        }
    }
}

/// The transformable columns of a row and how to decode each.
struct RowDecoders {
    struct Column {
        var index: Int
        var entity: String
        var key: String
        var name: String
        var transformer: any ValueTransforming
    }

    var columns: [Column] = []
    /// Binary columns whose values may be in files (ExternalBinaryStorage+Rows.swift).
    var external: [ExternalColumn] = []
    var isEmpty: Bool { columns.isEmpty && external.isEmpty }

    /// The decoded values of `row`'s transformable columns.
    func decode(_ row: any SQLRowReading) throws -> DecodedRow {
        var values: [(Int, Value)] = []
        values.reserveCapacity(columns.count)
        for c in columns {
            let raw = row[c.index]
            switch raw {
            case .null:
                continue
            case .data(let bytes):
                do {
                    values.append((c.index, try c.transformer.decode(bytes)))
                } catch {
                    throw TransformableError.cannotDecode(entity: c.entity, key: c.key, transformer: c.name,
                                                          primaryKey: row.integer(at: 0), reason: "\(error)")
                }
            default:
                throw TransformableError.cannotDecode(entity: c.entity, key: c.key, transformer: c.name,
                                                      primaryKey: row.integer(at: 0), reason: "the column holds \(raw.typeName), not bytes")
            }
        }
        try readExternal(row, into: &values)   // ExternalBinaryStorage+Rows.swift
        return DecodedRow(base: row, decoded: values)
    }
}

/// A driver's row with its transformable columns decoded.
struct DecodedRow: SQLRowReading {
    let base: any SQLRowReading
    /// (column, decoded value); a column not listed reads from `base`.
    let decoded: [(Int, Value)]

    subscript(index: Int) -> Value {
        for (i, v) in decoded where i == index { return v }
        return base[index]
    }

    func initialize(_ destination: UnsafeMutablePointer<Value>, columns: Range<Int>) {
        base.initialize(destination, columns: columns)
        for (i, v) in decoded where columns.contains(i) { destination[i - columns.lowerBound] = v }
    }

    func text(at index: Int, equals text: String) -> Bool { base.text(at: index, equals: text) }
    func integer(at index: Int) -> Int64? { base.integer(at: index) }
    func storedNumber(at index: Int) -> StoredNumber {
        decoded.contains { $0.0 == index } ? .other : base.storedNumber(at: index)
    }
}

extension SQLStore {
    /// The decoders of `columns` (planned columns of `entity`'s rows, the
    /// first at row index `offset`): empty when none is transformable.
    func rowDecoders(_ columns: [PlannedColumn], of entity: String, offset: Int = 2) throws -> RowDecoders {
        var decoders = RowDecoders()
        for (i, c) in columns.enumerated() {
            if case .attribute(.binary) = c.kind { try addExternal(c, of: entity, index: offset + i, to: &decoders); continue }
            guard case .attribute(.transformable) = c.kind else { continue }
            guard let (owner, attribute) = transformableAttribute(c.name, of: entity, onlyFor: c.onlyFor) else { continue }
            let name = StoreValues.transformerName(attribute)
            decoders.columns.append(.init(index: offset + i, entity: owner, key: attribute.name, name: name,
                                          transformer: try ValueTransformerRegistry.shared.transformer(named: name, attribute: "\(owner).\(attribute.name)")))
        }
        return decoders
    }

    /// The transformable attribute `name` of `entity` or of one of its
    /// sub-entities (`onlyFor`: the entities whose column this is).
    private func transformableAttribute(_ name: String, of entity: String, onlyFor: Set<String>?) -> (String, Attribute)? {
        guard let e = model.entity(named: entity) else { return nil }
        let candidates = [e] + e.allSubentities(in: model)
        for c in candidates where onlyFor == nil || onlyFor!.contains(c.name) {
            if let a = c.attribute(named: name, in: model), a.type == .transformable { return (c.name, a) }
        }
        return nil
    }

    /// `database.streamRows` with the transformable columns decoded.
    func streamRows(_ sql: String, _ arguments: [Value], as kinds: [SQLValueKind], decoding decoders: RowDecoders,
                    _ body: (any SQLRowReading) throws -> Void) throws {
        if decoders.isEmpty { return try database.streamRows(sql, arguments, as: kinds, body) }
        try database.streamRows(sql, arguments, as: kinds) { row in try body(try decoders.decode(row)) }
    }
}
