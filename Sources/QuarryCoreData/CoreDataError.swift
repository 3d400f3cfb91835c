// The errors of opening a Core Data store: each says what was found, what
// could not be done, and what to try (the hint). Nothing is ever written
// when one is thrown; the message says so where a reader might wonder.
public struct CoreDataError: Error, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable {
        /// The file is not a readable SQLite database (damaged, encrypted).
        case unreadableStore
        /// The file is SQLite but not a Core Data store.
        case notCoreData
        /// No model given and none cached in the store.
        case noModel
        /// The model (given or cached) could not be read.
        case unreadableModel
        /// The model does not describe the store's tables and columns.
        case modelMismatch
        /// A write Quarry cannot make the way Core Data would (opened
        /// writable): refused, nothing written.
        case notWritable
    }
    public let kind: Kind
    public let message: String
    public let hint: String?

    public init(_ kind: Kind, _ message: String, hint: String? = nil) {
        self.kind = kind
        self.message = message
        self.hint = hint
    }

    public var description: String { message + (hint.map { "; hint: \($0)" } ?? "") }
}
