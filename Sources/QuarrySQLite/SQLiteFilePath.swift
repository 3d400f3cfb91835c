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
        let path = String(rest).removingPercentEncoding ?? String(rest)
        let parameters = query.dropFirst().prefix(while: { $0 != "#" }).split(separator: "&")
        if path.isEmpty || path == ":memory:" || parameters.contains(where: { $0 == "mode=memory" }) { return nil }
        return path
    }
}
