// Binary attributes that allow external storage, in predicates and sorts.
// On a SQLite store their column holds either the bytes or, for a long
// value, the name of the file that holds them (ExternalBinaryStorage.swift
// in QuarryStore), so SQL comparing the column (`photo == %@`, `length:`,
// CONTAINS, BETWEEN, IN, an aggregate, …) or ordering by it would see the
// name, not the value: a silent wrong answer. The policy, the same on every
// engine (on PostgreSQL such values stay inline, and still follow it, so
// that both databases give the same answers for the same reason):
//
// - `x == nil` / `x != nil` lower to `IS NULL` / `IS NOT NULL` (nil is NULL
//   whichever way a value is kept).
// - Any other use in a predicate is `LoweringError.unsupported`: its
//   conjunct runs in memory on the values read back (files included) — the
//   memory engine's answer by construction.
// - A sort by such an attribute is refused (B004) on every engine, the
//   memory engine included, as a sort by a transformable is.
// - A batch update setting one runs object by object, so the value written
//   goes through the store (and to a file when it is long).
// This is the transformable policy (PredicateLowering+Transformable.swift):
// both call `keepsValueOutsideSQL`.
import QuarryModel

extension Attribute {
    /// A binary attribute whose long values a SQLite store keeps in files.
    public var storesBytesOutsideSQL: Bool { type == .binary && allowsExternalBinaryDataStorage }

    /// Whether SQL sees only a stand-in for this attribute's values (a
    /// transformer's bytes, or an external file's name): SQL then tests
    /// them against nil only.
    public var keepsValueOutsideSQL: Bool { type == .transformable || storesBytesOutsideSQL }

    /// Why SQL cannot compare or sort this attribute's values.
    var outsideSQLReason: String {
        storesBytesOutsideSQL ? "allows external storage, and its column may hold a file's name instead of the bytes"
                              : "is transformable"
    }
}
