// The SQL functions Quarry's SQL lowering calls for what SQLite cannot say
// itself — Unicode [c]/[d] folding, Apple's LIKE, MATCHES, BEGINSWITH,
// ENDSWITH, CONTAINS — registered on every connection this module opens.
//
//   quarry_fold(text, flags)               folded text (flags: 1 = [c], 2 = [d])
//   quarry_like(text, pattern, flags)      1 / 0, Apple's LIKE (* ? \)
//   quarry_matches(text, pattern, flags)   1 / 0, whole-string ICU regex ('' matches nothing)
//   quarry_begins(text, needle, flags)     1 / 0
//   quarry_ends(text, needle, flags)       1 / 0
//   quarry_contains(text, needle, flags)   1 / 0
//
// They give the in-memory evaluator's answers so that SQL and memory return
// the same rows: rows the raw bytes can decide (ASCII) are decided here with
// the evaluator's own byte checks (NeedleMatcher.swift, LikeMatcher.swift);
// the rest, and every MATCHES, go to the evaluator itself through its public
// API (EvaluatorBridge.swift). `quarry_fold` mirrors the evaluator's folding
// (TextFolding.swift) and returns NFC, so SQLite's byte comparison of folded
// values agrees with Swift's comparison of the same strings.
// A NULL in any argument gives NULL: the SQL lowering does nil logic, as the
// evaluator does, around these calls. Non-text arguments are read as text
// (SQLite's own conversion), as the built-in string functions do.
//
// All are marked SQLITE_DETERMINISTIC (so `quarry_fold(name, 3)` can be
// indexed and constant calls factored out of loops) and SQLITE_INNOCUOUS (no
// side effects, safe in views and triggers). Patterns and needles are
// compiled once per statement and kept with `sqlite3_set_auxdata`; a cached
// entry remembers its raw pattern and flags and is used only when both match,
// so a pattern that varies per row is simply recompiled.
import CSQLite
import Foundation
import QuarryBinding

/// SQLite wants C function pointers: these are closures with no captures,
/// and any state comes through `sqlite3_user_data` or the auxdata.
typealias SQLFunctionBody = @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void

/// Per-connection settings the functions read (through `sqlite3_user_data`).
final class SQLFunctionSettings {
    var regexTimeLimit: Double
    init(regexTimeLimit: Double) { self.regexTimeLimit = regexTimeLimit }
}

enum SQLiteFunctions {
    /// The names registered, as SQL spells them.
    static var names: [String] { QuarrySQLFunction.allCases.map(\.sqlName) }

    /// The body of each function: the switch fails to compile when
    /// QuarrySQLFunction gains a case SQLite does not implement.
    static func body(_ f: QuarrySQLFunction) -> SQLFunctionBody {
        switch f {
        case .fold: return { ctx, _, argv in SQLiteFunctions.fold(ctx, argv!) }
        case .like: return { ctx, _, argv in SQLiteFunctions.like(ctx, argv!) }
        case .matches: return { ctx, _, argv in SQLiteFunctions.matches(ctx, argv!) }
        case .begins: return { ctx, _, argv in SQLiteFunctions.needle(ctx, argv!, .begins) }
        case .ends: return { ctx, _, argv in SQLiteFunctions.needle(ctx, argv!, .ends) }
        case .contains: return { ctx, _, argv in SQLiteFunctions.needle(ctx, argv!, .contains) }
        }
    }

    /// Registers every function on `db`; returns the first failing result code.
    static func register(on db: OpaquePointer, settings: SQLFunctionSettings) -> Int32 {
        let flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS
        let table: [(String, Int32, SQLFunctionBody)] = QuarrySQLFunction.allCases.map { ($0.sqlName, Int32($0.arity), body($0)) }
        for (name, arity, body) in table {
            // Each registration owns one retain of the settings, released by
            // SQLite (xDestroy) when the function is replaced or the
            // connection closes.
            let userData = Unmanaged.passRetained(settings).toOpaque()
            let rc = sqlite3_create_function_v2(db, name, arity, flags, userData, body, nil, nil, { p in
                if let p { Unmanaged<SQLFunctionSettings>.fromOpaque(p).release() }
            })
            if rc != SQLITE_OK { return rc }
        }
        return SQLITE_OK
    }

    // MARK: The functions

    static func fold(_ ctx: OpaquePointer?, _ argv: UnsafeMutablePointer<OpaquePointer?>) {
        guard let s = text(argv[0]), let flags = int(argv[1]) else { return sqlite3_result_null(ctx) }
        let folding = TextFolding(flags: flags)
        if Bytes.isASCII(s) {
            // ASCII folds to ASCII by lower-casing alone; unchanged text is
            // returned as is, without a copy.
            let needsLowering = folding.caseInsensitive && s.contains { $0 &- 0x41 < 26 }
            if !needsLowering {
                if sqlite3_value_type(argv[0]) == SQLITE_TEXT { return sqlite3_result_value(ctx, argv[0]) }
                return resultText(ctx, s)
            }
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: s.count) { buffer in
                for i in 0..<s.count { buffer[i] = Bytes.lower(s[i]) }
                resultText(ctx, UnsafeBufferPointer(buffer))
            }
        }
        var folded = folding.foldForComparison(String(decoding: s, as: UTF8.self))
        folded.withUTF8 { resultText(ctx, $0) }
    }

    static func like(_ ctx: OpaquePointer?, _ argv: UnsafeMutablePointer<OpaquePointer?>) {
        guard let s = text(argv[0]), let p = text(argv[1]), let flags = int(argv[2]) else {
            return sqlite3_result_null(ctx)
        }
        if let matched = withCached(ctx, 1, as: LikeMatcher.self, { $0.isFor(p, flags: flags) ? $0.matches(s) : nil }) {
            return sqlite3_result_int(ctx, matched ? 1 : 0)
        }
        let matcher = LikeMatcher(raw: p, flags: flags)
        setAuxdata(ctx, 1, matcher)
        sqlite3_result_int(ctx, matcher.matches(s) ? 1 : 0)
    }

    static func matches(_ ctx: OpaquePointer?, _ argv: UnsafeMutablePointer<OpaquePointer?>) {
        guard let s = text(argv[0]), let p = text(argv[1]), let flags = int(argv[2]) else {
            return sqlite3_result_null(ctx)
        }
        // An empty pattern matches nothing, and is no error (as in the evaluator).
        if p.isEmpty { return sqlite3_result_int(ctx, 0) }
        let timeLimit = Unmanaged<SQLFunctionSettings>.fromOpaque(sqlite3_user_data(ctx)).takeUnretainedValue().regexTimeLimit
        do throws(SQLFunctionFailure) {
            let regex: RegexMatcher
            if let cached = auxdata(ctx, 1, as: RegexMatcher.self), cached.isFor(p, flags: flags, timeLimit: timeLimit) {
                regex = cached
            } else {
                regex = try RegexMatcher(raw: p, flags: flags, timeLimit: timeLimit)
                setAuxdata(ctx, 1, regex)
            }
            sqlite3_result_int(ctx, try regex.matches(s) ? 1 : 0)
        } catch {
            sqlite3_result_error(ctx, error.message, -1)
        }
    }

    /// BEGINSWITH / ENDSWITH / CONTAINS: the needle is folded once per statement.
    static func needle(_ ctx: OpaquePointer?, _ argv: UnsafeMutablePointer<OpaquePointer?>,
                       _ operation: NeedleMatcher.Operation) {
        guard let s = text(argv[0]), let n = text(argv[1]), let flags = int(argv[2]) else {
            return sqlite3_result_null(ctx)
        }
        if let matched = withCached(ctx, 1, as: NeedleMatcher.self, { $0.isFor(n, flags: flags) ? $0.test(s) : nil }) {
            return sqlite3_result_int(ctx, matched ? 1 : 0)
        }
        let matcher = NeedleMatcher(raw: n, flags: flags, operation: operation)
        setAuxdata(ctx, 1, matcher)
        sqlite3_result_int(ctx, matcher.test(s) ? 1 : 0)
    }

    // MARK: Arguments and results

    /// The argument's UTF-8 bytes, valid until the function returns; nil for NULL.
    @inline(__always)
    static func text(_ value: OpaquePointer?) -> UnsafeBufferPointer<UInt8>? {
        if sqlite3_value_type(value) == SQLITE_NULL { return nil }
        // sqlite3_value_text first, then _bytes: the documented safe order.
        let p = sqlite3_value_text(value)
        let n = Int(sqlite3_value_bytes(value))
        return UnsafeBufferPointer(start: p, count: p == nil ? 0 : n)
    }

    @inline(__always)
    static func int(_ value: OpaquePointer?) -> Int32? {
        sqlite3_value_type(value) == SQLITE_NULL ? nil : sqlite3_value_int(value)
    }

    static func resultText(_ ctx: OpaquePointer?, _ bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress, bytes.count > 0 else {
            // A NULL pointer would make the result NULL, not ''.
            return sqlite3_result_text(ctx, "", 0, SQLITE_TRANSIENT)
        }
        base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
            sqlite3_result_text64(ctx, $0, UInt64(bytes.count), SQLITE_TRANSIENT, UInt8(SQLITE_UTF8))
        }
    }

    // MARK: Auxdata

    /// The object cached on argument `index` of this call site. Each call
    /// site caches one type per argument, so the unchecked cast is safe.
    @inline(__always)
    static func auxdata<T: AnyObject>(_ ctx: OpaquePointer?, _ index: Int32, as: T.Type) -> T? {
        guard let p = sqlite3_get_auxdata(ctx, index) else { return nil }
        return Unmanaged<T>.fromOpaque(p).takeUnretainedValue()
    }

    /// `body` applied to the object cached on argument `index`, used through
    /// the statement's own reference: no retain and release on every row.
    /// Nil when nothing is cached or `body` finds the entry is for another
    /// pattern (it returns nil).
    @inline(__always)
    static func withCached<T: AnyObject, R>(_ ctx: OpaquePointer?, _ index: Int32, as: T.Type, _ body: (T) -> R?) -> R? {
        guard let p = sqlite3_get_auxdata(ctx, index) else { return nil }
        return Unmanaged<T>.fromOpaque(p)._withUnsafeGuaranteedRef(body)
    }

    /// Whether an argument's bytes are `key` (a cached entry's check, on
    /// every row: one memcmp, not a generic walk over the elements).
    static func equal(_ bytes: UnsafeBufferPointer<UInt8>, _ key: [UInt8]) -> Bool {
        guard bytes.count == key.count else { return false }
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return true }
        return key.withUnsafeBufferPointer { memcmp(base, $0.baseAddress!, bytes.count) == 0 }
    }

    /// Hands SQLite one retain of `object`; SQLite releases it when the
    /// statement is finalized or the argument changes (or at once, if it
    /// cannot keep it — the caller holds its own reference meanwhile).
    static func setAuxdata(_ ctx: OpaquePointer?, _ index: Int32, _ object: AnyObject) {
        sqlite3_set_auxdata(ctx, index, Unmanaged.passRetained(object).toOpaque()) { p in
            if let p { Unmanaged<AnyObject>.fromOpaque(p).release() }
        }
    }
}

/// SQLite's "copy this now" destructor (`SQLITE_TRANSIENT`), which Swift
/// cannot import because it is a macro casting -1 to a function pointer.
let SQLITE_TRANSIENT = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
