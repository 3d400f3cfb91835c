// Transaction control in the statement language, as sqlite3 and psql users
// type it: BEGIN, COMMIT (or END), ROLLBACK, and savepoints inside an open
// transaction (SAVEPOINT name, RELEASE name, ROLLBACK TO name). The shell
// runs each as the store's own SQL on the session's connection
// (TransactionStatement+SQL.swift in QuarryShell); the store's writes inside
// become savepoints of that transaction (`inTransaction`).

/// One transaction-control statement.
public enum TransactionStatement: Sendable, Equatable {
    case begin
    case commit
    case rollback
    case savepoint(Name)
    case release(Name)
    case rollbackTo(Name)

    /// The words that start one (a statement starting with them is parsed here).
    public static let verbs = ["BEGIN", "COMMIT", "END", "ROLLBACK", "SAVEPOINT", "RELEASE"]

    /// The canonical text (StatementPrinter, `.ast`).
    public var text: String {
        switch self {
        case .begin: return "BEGIN"
        case .commit: return "COMMIT"
        case .rollback: return "ROLLBACK"
        case .savepoint(let n): return "SAVEPOINT \(n.text)"
        case .release(let n): return "RELEASE \(n.text)"
        case .rollbackTo(let n): return "ROLLBACK TO \(n.text)"
        }
    }
}

extension StatementParser {
    // transaction = ("BEGIN" | "START") ["TRANSACTION"] | ("COMMIT" | "END") ["TRANSACTION"]
    //             | "ROLLBACK" ["TRANSACTION"] ["TO" ["SAVEPOINT"] name]
    //             | "SAVEPOINT" name | "RELEASE" ["SAVEPOINT"] name ;
    func transaction(_ verb: String, from a: Int, to b: Int) throws(StatementError) -> Statement {
        var i = a + 1
        func optional(_ w: String) { if i < b, word(i) == w { i += 1 } }
        func name() throws(StatementError) -> Name {
            guard i < b, case .identifier = tokens[i].kind else {
                throw StatementError(.expectedKeyPath, "expected a savepoint name after \(text(i - 1).uppercased())",
                                 at: i < b ? tokens[i].span : end(of: i - 1), hints: ["as in SAVEPOINT before_cleanup"])
            }
            defer { i += 1 }
            return Name(text: text(i), span: tokens[i].span)
        }
        let result: TransactionStatement
        switch verb {
        case "BEGIN":
            optional("TRANSACTION")
            result = .begin
        case "COMMIT", "END":
            optional("TRANSACTION")
            result = .commit
        case "ROLLBACK":
            optional("TRANSACTION")
            if i < b, word(i) == "TO" {
                i += 1
                optional("SAVEPOINT")
                result = .rollbackTo(try name())
            } else {
                result = .rollback
            }
        case "SAVEPOINT":
            result = .savepoint(try name())
        default: // RELEASE
            optional("SAVEPOINT")
            result = .release(try name())
        }
        guard i >= b else {
            throw StatementError(.unexpectedText, "unexpected '\(text(i))' after \(result.text)", at: tokens[i].span)
        }
        return .transaction(result)
    }
}
