// A database as bytes: `serializedImage()` copies the whole main database
// into a byte array (SQLite's sqlite3_serialize), and `loadImage(_:)` replaces
// the main database of a connection with such bytes (sqlite3_deserialize).
// The image is copied into memory SQLite owns, so the database stays
// writable and can grow; nothing is shared with the caller's buffer.
//
// Why: an in-memory database that is always created with the same rows (the
// shell's embedded default store) can be loaded from a prebuilt image in
// microseconds instead of creating its schema and inserting its rows on
// every start.
import CSQLite

extension SQLiteConnection {
    /// The bytes of the main database (for an in-memory database, its pages
    /// as a database file would hold them).
    public func serializedImage() throws(SQLiteError) -> [UInt8] {
        var size: sqlite3_int64 = 0
        guard let bytes = sqlite3_serialize(db, "main", &size, 0) else {
            throw SQLiteError(db: db, code: SQLITE_NOMEM, sql: nil).with(message: "cannot serialize the database")
        }
        defer { sqlite3_free(bytes) }
        return Array(UnsafeBufferPointer(start: bytes, count: Int(size)))
    }

    /// Replaces the main database with `image` (bytes from
    /// `serializedImage()`, or a database file's contents). The connection's
    /// cached statements are dropped first: they belong to the old schema.
    public func loadImage(_ image: UnsafeRawBufferPointer) throws(SQLiteError) {
        guard !image.isEmpty, let copy = sqlite3_malloc64(sqlite3_uint64(image.count)) else {
            throw SQLiteError(db: db, code: SQLITE_NOMEM, sql: nil).with(message: "cannot load an empty database image")
        }
        copy.copyMemory(from: image.baseAddress!, byteCount: image.count)
        cache.removeAll()
        // FREEONCLOSE hands `copy` to SQLite (freed even when this fails);
        // RESIZEABLE lets the database grow past the image.
        let flags = UInt32(SQLITE_DESERIALIZE_FREEONCLOSE | SQLITE_DESERIALIZE_RESIZEABLE)
        let rc = sqlite3_deserialize(db, "main", copy.assumingMemoryBound(to: UInt8.self),
                                     sqlite3_int64(image.count), sqlite3_int64(image.count), flags)
        guard rc == SQLITE_OK else { throw SQLiteError(db: db, code: rc, sql: nil).with(message: "cannot load the database image") }
        // A bad image is only noticed when its pages are read; then the
        // connection is given an empty database rather than left on garbage.
        do throws(SQLiteError) {
            _ = try query("SELECT count(*) FROM sqlite_master", [])
        } catch {
            cache.removeAll()
            // FREEONCLOSE here too: the empty database grows into buffers
            // SQLite allocates, and without the flag it never frees them.
            sqlite3_deserialize(db, "main", nil, 0, 0, UInt32(SQLITE_DESERIALIZE_FREEONCLOSE | SQLITE_DESERIALIZE_RESIZEABLE))
            throw error.with(message: "the database image is not a SQLite database: \(error.message)")
        }
    }
}
