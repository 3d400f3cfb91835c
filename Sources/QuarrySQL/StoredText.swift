// Stores keep text in canonical composition (NFC): then SQLite's byte order
// and byte equality agree with the evaluator's rules (canonical equivalence,
// scalar order), for stored values and bound constants alike.
import Foundation

public enum StoredText {
    /// `s` in NFC; ASCII is already composed and skips Foundation.
    public static func composed(_ s: String) -> String {
        s.utf8.allSatisfy({ $0 < 0x80 }) ? s : s.precomposedStringWithCanonicalMapping
    }
}
