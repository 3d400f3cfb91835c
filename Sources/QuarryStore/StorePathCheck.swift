// Checks on a store path before SQLite opens it. SQLite opens whatever it is
// given: a FIFO blocks the open forever (waiting for a writer), a device is
// read as if it were a database, and a directory fails with a vague "unable
// to open database file". Anything that exists and is not a regular file is
// refused here at once, with what it is.
import QuarrySQLite
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A store path that names something other than a regular file.
public struct StorePathError: Error, Equatable, CustomStringConvertible {
    public var path: String
    public var kind: String
    public var description: String {
        "cannot use \(path) as a store: it is \(kind), not a regular file; give the path of a store file (or a new one)"
    }
}

public enum StorePathCheck {
    /// Throws when `path` exists and is not a regular file (symbolic links
    /// are followed). A missing path is fine: the store will be created.
    public static func check(_ path: String) throws(StorePathError) {
        // A `file:` URI opens a file too (SQLiteFilePath.swift).
        guard let file = SQLiteFilePath.file(of: path) else { return }
        var info = stat()
        guard stat(file, &info) == 0 else { return }
        let kind: String
        switch info.st_mode & S_IFMT {
        case S_IFREG: return
        case S_IFDIR: kind = "a directory"
        case S_IFIFO: kind = "a FIFO (named pipe)"
        case S_IFCHR: kind = "a character device"
        case S_IFBLK: kind = "a block device"
        case S_IFSOCK: kind = "a socket"
        default: kind = "a special file"
        }
        throw StorePathError(path: path, kind: kind)
    }
}
