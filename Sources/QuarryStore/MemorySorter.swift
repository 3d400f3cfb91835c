// Sorts a fetch's rows in memory, in exactly the order SQLite's ORDER BY
// would give them (the planner's `MemorySortPlan` says when that is possible
// and why it is faster: SQLPlanner+MemorySort.swift). The fetch reads its
// rows unsorted and records each row's sort keys here as stored (storage
// class and value) before it moves on; `order()` then sorts compact records
// of encoded keys, not the rows, and tells where each row goes.
//
// Each key becomes a 64-bit word that compares as an unsigned integer in
// SQLite's order: integers with the sign bit flipped, or, in a column that
// held a REAL, every value as a double (exact for integers up to 2^53, as
// SQLite compares an INTEGER with a REAL by value) in an order-keeping
// encoding; NULL is 0, below every number (only the smallest integer also
// encodes as 0: a column holding both gives up). A descending key inverts
// its word. The primary key breaks ties, as the planned ORDER BY's last key
// does. A column holding text or a blob, or a mix of REALs and integers
// past 2^53, make `order()` give up (nil): the caller then asks SQL for the
// order.
import QuarrySQL

struct MemorySorter {
    private let keys: [MemorySortKey]
    /// Per row, per key: the raw 64 bits of the stored number (0 for NULL)...
    private var bits: [UInt64] = []
    /// ...and what it is: 0 NULL, 1 INTEGER, 2 REAL.
    private var classes: [UInt8] = []
    private var primaryKeys: [Int64] = []
    private var columns: [Column]
    /// A key held something memory cannot order (text, a blob).
    private var unsortable = false

    /// What a key column held, across all rows.
    private struct Column {
        var sawNull = false
        var sawReal = false
        /// An integer too big to compare exactly as a double.
        var sawWideInteger = false
        /// `Int64.min`, which encodes as NULL does.
        var sawSmallest = false
    }

    init(keys: [MemorySortKey]) {
        self.keys = keys
        columns = Array(repeating: Column(), count: keys.count)
    }

    var count: Int { primaryKeys.count }

    /// Records the current row's sort keys (call once per row that the
    /// result keeps, in the result's order).
    mutating func record(_ row: any SQLRowReading, primaryKey: Int64) {
        primaryKeys.append(primaryKey)
        for k in keys.indices {
            switch row.storedNumber(at: keys[k].column) {
            case .integer(let n):
                bits.append(UInt64(bitPattern: n))
                classes.append(1)
                if n.magnitude > Self.exactInDouble {
                    columns[k].sawWideInteger = true
                    if n == .min { columns[k].sawSmallest = true }
                }
            case .real(let d):
                bits.append(d.bitPattern)
                classes.append(2)
                columns[k].sawReal = true
            case .null:
                bits.append(0)
                classes.append(0)
                columns[k].sawNull = true
            case .other:
                bits.append(0)
                classes.append(0)
                unsortable = true
            }
        }
    }

    private static let exactInDouble: UInt64 = 1 << 53
    private static let signBit: UInt64 = 1 << 63

    /// One row's encoded keys, its key and where it was read.
    private struct Entry {
        var w0: UInt64 = 0, w1: UInt64 = 0, w2: UInt64 = 0
        var primaryKey: Int64
        var index: Int32
    }

    /// The rows' positions in sorted order, or nil when memory cannot sort
    /// these keys exactly as SQLite would.
    func order() -> [Int32]? {
        // (The planner offers at most `maximumKeys`, the words of an `Entry`.)
        guard !unsortable, count <= Int(Int32.max), keys.count <= MemorySortPlan.maximumKeys else { return nil }
        for c in columns where (c.sawReal && c.sawWideInteger) || (c.sawNull && c.sawSmallest) { return nil }
        let width = keys.count
        var entries: [Entry] = []
        entries.reserveCapacity(count)
        for row in 0 ..< count {
            var words: (UInt64, UInt64, UInt64) = (0, 0, 0)
            for k in 0 ..< width {
                let raw = bits[row * width + k]
                var word: UInt64
                switch classes[row * width + k] {
                case 0: word = 0
                case 1: word = columns[k].sawReal ? Self.ordered(Double(Int64(bitPattern: raw))) : raw ^ Self.signBit
                default: word = Self.ordered(Double(bitPattern: raw))
                }
                if !keys[k].ascending { word = ~word }
                switch k {
                case 0: words.0 = word
                case 1: words.1 = word
                default: words.2 = word
                }
            }
            entries.append(Entry(w0: words.0, w1: words.1, w2: words.2, primaryKey: primaryKeys[row], index: Int32(row)))
        }
        entries.sort { a, b in
            if a.w0 != b.w0 { return a.w0 < b.w0 }
            if a.w1 != b.w1 { return a.w1 < b.w1 }
            if a.w2 != b.w2 { return a.w2 < b.w2 }
            return a.primaryKey < b.primaryKey
        }
        return entries.map(\.index)
    }

    /// The rows' positions in the order of the plan's sorted SELECT:
    /// `order()`, or when memory cannot sort these keys, SQL's own order
    /// of the row keys (a second, narrow query). Rows that query does not
    /// return (changed in between by another connection) keep their
    /// places at the end.
    func order(of plan: FetchPlan, in database: SQLDatabase) throws -> [Int32] {
        if let order = order() { return order }
        var positions: [Int64: Int32] = [:]
        positions.reserveCapacity(count)
        for (row, key) in primaryKeys.enumerated() where positions[key] == nil { positions[key] = Int32(row) }
        var order: [Int32] = []
        order.reserveCapacity(count)
        let keys = plan.statement.selecting(columns: [StoreMapping.primaryKey]).sql
        try database.streamRows(keys.sql, keys.arguments, as: [.int]) { row in
            if let key = row.integer(at: 0), let at = positions.removeValue(forKey: key) { order.append(at) }
        }
        if order.count < count {
            var placed = [Bool](repeating: false, count: count)
            for at in order { placed[Int(at)] = true }
            for row in 0 ..< count where !placed[row] { order.append(Int32(row)) }
        }
        return order
    }

    /// A double's bits, made to compare as unsigned integers in numeric
    /// order (negative zero as zero: SQLite finds them equal, and in fact
    /// stores -0.0 as 0.0, so this is only a safeguard). Never 0
    /// (NULL's word) for a number SQLite stores: only a NaN could be.
    private static func ordered(_ d: Double) -> UInt64 {
        let bits = (d == 0 ? 0.0 : d).bitPattern
        return bits & signBit != 0 ? ~bits : bits | signBit
    }

    /// `items` (one per recorded row) rearranged by `order`: moved, not
    /// copied, so that no reference is retained or released on the way.
    static func reorder<T>(_ items: inout [T], by order: [Int32]) {
        precondition(items.count == order.count, "an order for \(order.count) rows applied to \(items.count)")
        let n = items.count
        guard n > 1 else { return }
        let moved = UnsafeMutablePointer<T>.allocate(capacity: n)
        defer { moved.deallocate() }
        items.withUnsafeMutableBufferPointer { buffer in
            let base = buffer.baseAddress!
            moved.moveInitialize(from: base, count: n)
            for i in 0 ..< n { (base + i).initialize(to: (moved + Int(order[i])).move()) }
        }
    }
}
