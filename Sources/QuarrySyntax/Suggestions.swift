// "Did you mean" suggestions by edit distance, for misspelt keywords here and
// for keys and entity names in later stages.

public enum Suggestions {
    /// The closest candidate within a distance that scales with the word's
    /// length (1 for short words, up to 3), compared case-insensitively.
    public static func closest(to word: String, among candidates: some Sequence<String>) -> String? {
        let w = Array(word.lowercased().unicodeScalars)
        guard w.count >= 2, w.count <= 64 else { return nil }
        let limit = w.count <= 4 ? 1 : (w.count <= 8 ? 2 : 3)
        var best: (String, Int)?
        for candidate in candidates {
            let c = Array(candidate.lowercased().unicodeScalars)
            guard abs(c.count - w.count) <= limit else { continue }
            let d = distance(w, c)
            if d <= limit, d < (best?.1 ?? Int.max) { best = (candidate, d) }
        }
        return best?.0
    }

    /// A keyword the word was probably meant to be (an operator or logical word).
    public static func keyword(near word: String) -> String? {
        let operators = Keyword.allCases.map(\.rawValue) + ["FUNCTION", "TERNARY", "UNION", "INTERSECT", "MINUS"]
        if let k = Keyword.allCases.first(where: { $0.rawValue.caseInsensitiveEquals(word) }) { return k.rawValue }
        return closest(to: word, among: operators)
    }

    /// Damerau–Levenshtein distance (with adjacent transpositions).
    static func distance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var row = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            row[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                row[j] = Swift.min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    row[j] = Swift.min(row[j], previous2[j - 2] + 1)
                }
            }
            previous2 = previous
            previous = row
        }
        return previous[b.count]
    }
}

extension String {
    func caseInsensitiveEquals(_ other: String) -> Bool {
        self.utf8.count == other.utf8.count && self.lowercased() == other.lowercased()
    }
}
