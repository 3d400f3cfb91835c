// The file a database name opens. Connections open names with SQLITE_OPEN_URI,
// so `file:/path/App.sqlite?mode=rw` opens /path/App.sqlite just as the plain
// path does: every check made on a file before SQLite opens it (is it a FIFO,
// is it a SQLite file at all, is it somebody else's database that must not be
// written) must look at that file, not at the text `file:…`, which names no
// file. A check that skipped URIs let `--store file:/path/App.sqlite` write
// Quarry's tables into an app's Core Data store.
//
// SQLite also follows symbolic links to the file itself, and keeps its `-wal`
// and `-shm` beside that file: code that looks at those (a reader that sees
// rows still in the `-wal`, the external-data folder beside a Core Data
// store) must start from the resolved path (`resolvingLinks`).
//
// The URI form is SQLite's (https://sqlite.org/uri.html): `file:`, an optional
// authority that is empty or `localhost`, the path up to `?` or `#`,
// percent-decoded; `mode=memory` or the path `:memory:` make an in-memory
// database.
//
// The reverse is here too: `uriPath` writes a path as a URI's path part (for
// the `immutable=1` opens that look at a file without writing), and
// `firstBytes` reads the header both that look and every connection check.
// All three go byte by byte: they run at every open of a store, where
// Foundation's percent-encoding and FileHandle were a measurable part.
import Foundation

public enum SQLiteFilePath {
    /// `file` with every symbolic link resolved, as SQLite resolves it to
    /// find the `-wal` and `-shm` (beside the file itself, not beside a link
    /// to it); `file` unchanged when it does not exist.
    public static func resolvingLinks(_ file: String) -> String {
        guard let resolved = realpath(file, nil) else { return file }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The file `name` opens; nil for an in-memory or temporary database
    /// (no file to look at), or a URI whose authority names another host
    /// (which SQLite refuses to open).
    public static func file(of name: String) -> String? {
        guard !name.isEmpty, name != ":memory:" else { return nil }
        guard name.hasPrefix("file:") else { return name }
        var rest = Substring(name.dropFirst("file:".count))
        let end = rest.firstIndex(where: { $0 == "?" || $0 == "#" }) ?? rest.endIndex
        let query = rest[end...]
        rest = rest[..<end]
        if rest.hasPrefix("//") {
            let afterSlashes = rest.dropFirst(2)
            let authorityEnd = afterSlashes.firstIndex(of: "/") ?? afterSlashes.endIndex
            let authority = afterSlashes[..<authorityEnd]
            guard authority.isEmpty || authority == "localhost" else { return nil }
            rest = afterSlashes[authorityEnd...]
        }
        let path = percentDecoded(rest) ?? String(rest)
        let parameters = query.dropFirst().prefix(while: { $0 != "#" }).split(separator: "&")
        if path.isEmpty || path == ":memory:" || parameters.contains(where: { $0 == "mode=memory" }) { return nil }
        return path
    }

    /// The 16 bytes every SQLite database starts with ("SQLite format 3"
    /// and a NUL).
    public static let headerMagic: [UInt8] = Array("SQLite format 3\u{0}".utf8)

    /// The first `count` bytes of the file at `path` (fewer when it is
    /// shorter; none when it does not open).
    public static func firstBytes(of path: String, count: Int) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return [] }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + filled, count - filled) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            filled += n
        }
        return Array(bytes[0..<filled])
    }

    /// `text` with every `%HH` turned into its byte; nil when an escape is
    /// malformed or the bytes are not UTF-8 (as Foundation's
    /// `removingPercentEncoding`, which took a measurable part of every open).
    static func percentDecoded(_ text: Substring) -> String? {
        guard text.utf8.contains(UInt8(ascii: "%")) else { return String(text) }
        func value(_ byte: UInt8) -> UInt8? {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
            default: return nil
            }
        }
        let source = Array(text.utf8)
        var bytes: [UInt8] = []
        var i = 0
        while i < source.count {
            if source[i] == UInt8(ascii: "%") {
                guard i + 2 < source.count, let high = value(source[i + 1]), let low = value(source[i + 2]) else { return nil }
                bytes.append(high << 4 | low)
                i += 3
            } else {
                bytes.append(source[i])
                i += 1
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    /// `path` as the path part of a `file:` URI: every byte but ASCII letters,
    /// digits, `-._~` and `/` percent-encoded (`?`, `#` and `%` would
    /// otherwise end or change it; SQLite decodes the rest back to the same
    /// UTF-8). Byte by byte: Foundation's percent-encoding took a tenth of a
    /// millisecond, at every open of a store.
    public static func uriPath(_ path: String) -> String {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(absolute.utf8.count)
        for byte in absolute.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                bytes.append(byte)
            default:
                bytes += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
