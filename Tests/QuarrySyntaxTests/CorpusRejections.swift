// The real-world strings (../shared/corpus/real-world-predicates.jsonl)
// that Quarry rejects on purpose, each with the reason Apple's NSPredicate
// rejects it too. CorpusStringTests holds the parser to exactly this set;
// Grammar/corpus-rejections.md explains each one for people.
enum CorpusRejections {
    static let expected: [String: String] = [:]
}
