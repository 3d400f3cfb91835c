// The real-world strings (../shared/corpus/real-world-predicates.jsonl)
// that Quarry rejects on purpose, each with the reason. CorpusStringTests
// holds the parser to exactly this set; Grammar/corpus-rejections.md
// explains each one for people. Eight are Realm's tests of text that must
// fail (Realm hands the string to NSPredicate first); one is a bare key
// path; one is a custom-selector predicate, which Apple parses and Quarry
// refuses by design (Grammar/deviations.md).
enum CorpusRejections {
    static let expected: [String: String] = [
        "%K": "a bare key path is no predicate: Apple's grammar needs a comparison (Unable to parse the format string)",
        "age": "a bare key path is no predicate (Realm's QueryTests: 'column name only', expected to throw)",
        "sdlfjasdflj": "gibberish: a bare key path (Realm's QueryTests, expected to throw)",
        "age * 25": "an expression without a comparison (Realm's QueryTests: 'invalid operator', expected to throw)",
        "age === 25": "'===' is no operator: '==' followed by '=' (Realm's QueryTests, expected to throw)",
        ",": "a lone comma (Realm's QueryTests, expected to throw)",
        "()": "empty parentheses (Realm's QueryTests, expected to throw)",
        "anyCol CONATINS 0": "a misspelt operator (Realm's QueryTests, expected to throw)",
        "self isKindOfClass: %@": "a custom-selector predicate: Apple parses it, Quarry refuses it by design (Grammar/deviations.md)",
    ]
}
