// Realistic strings by kind: person names (about one in four non-ASCII, one
// in twenty East Asian), e-mail addresses made from the row's own name when
// it has one, companies, cities, addresses, phone numbers, URLs, job and book
// titles, departments, tasks, sentences, ISBNs. Each kind also answers "how
// many distinct values can you make?", which the plan uses to refuse an
// impossible uniqueness before writing anything.
//
// E-mail local parts fold names to ASCII by hand (José → jose, Łukasz →
// lukasz) through a small table: Foundation's folding is slow per row and
// not guaranteed identical across platforms.

/// A named kind of realistic text.
enum TextKind: String, CaseIterable, Sendable {
    case personName = "person name", firstName = "first name", lastName = "last name", email
    case company, publisher, city, country, street, address, phone, url, username
    case jobTitle = "job title", bookTitle = "book title", department, project, task
    case sentence, words, word, color, status, isbn, zip

    /// Spelling-insensitive lookup (`personName`, `person_name`, `Person Name`).
    static func named(_ text: String) -> TextKind? {
        let key = FactoryNodes.normalize(text)
        return allCases.first { FactoryNodes.normalize($0.rawValue) == key }
    }

    /// How many distinct values the kind yields (nil: practically unbounded).
    var capacity: Int? {
        switch self {
        case .firstName: return Vocabulary.firstNames.count
        case .lastName: return Vocabulary.lastNames.count
        case .personName: return Vocabulary.firstNames.count * Vocabulary.lastNames.count + Vocabulary.eastAsianNames.count
        case .company: return Vocabulary.companyStems.count * Vocabulary.companySuffixes.count
        case .publisher: return Vocabulary.publishers.count
        case .city: return Vocabulary.cities.count
        case .country: return Vocabulary.countries.count
        case .jobTitle: return Vocabulary.jobTitles.count
        case .department: return Vocabulary.departments.count * Vocabulary.regions.count
        case .color: return Vocabulary.colors.count
        case .status: return Vocabulary.statuses.count
        case .word: return Vocabulary.words.count
        case .project: return Vocabulary.projects.count * 100
        default: return nil
        }
    }
}

/// Makes text of one kind. `name` is the row's person name when the entity
/// has one before this attribute (e-mail addresses are made from it).
struct TextMaker {
    static func make(_ kind: TextKind, _ r: inout FixtureRandom, row: Int, name: String?) -> String {
        switch kind {
        case .firstName: return pick(Vocabulary.firstNames, &r)
        case .lastName: return pick(Vocabulary.lastNames, &r)
        case .personName:
            if r.index(20) == 0 { return pick(Vocabulary.eastAsianNames, &r) }
            return pick(Vocabulary.firstNames, &r) + " " + pick(Vocabulary.lastNames, &r)
        case .email:
            var local = name.map(emailLocalPart) ?? ""
            if local.isEmpty { local = asciiFold(pick(Vocabulary.firstNames, &r)) + "." + asciiFold(pick(Vocabulary.lastNames, &r)) }
            if r.index(3) == 0 { local += String(r.index(100)) }
            return local + "@" + pick(Vocabulary.domains, &r)
        case .company: return pick(Vocabulary.companyStems, &r) + pick(Vocabulary.companySuffixes, &r)
        case .publisher: return pick(Vocabulary.publishers, &r)
        case .city: return pick(Vocabulary.cities, &r)
        case .country: return pick(Vocabulary.countries, &r)
        case .street: return pick(Vocabulary.streets, &r)
        case .address: return String(1 + r.index(250)) + " " + pick(Vocabulary.streets, &r) + ", " + pick(Vocabulary.cities, &r)
        case .phone:
            return "+1 555 " + digits(3, &r) + " " + digits(4, &r)
        case .url:
            return "https://www." + slug(pick(Vocabulary.companyStems, &r)) + ".example/" + pick(Vocabulary.words, &r).filter(\.isASCII)
        case .username:
            return asciiFold(pick(Vocabulary.firstNames, &r)) + "_" + asciiFold(pick(Vocabulary.words, &r)) + String(r.index(1000))
        case .jobTitle: return pick(Vocabulary.jobTitles, &r)
        case .bookTitle:
            let pattern = pick(Vocabulary.titlePatterns, &r)
            var out = ""
            var rest = Substring(pattern)
            while let range = rest.range(of: "%@") {
                out += rest[..<range.lowerBound] + pick(Vocabulary.titleWords, &r)
                rest = rest[range.upperBound...]
            }
            return out + rest
        case .department: return pick(Vocabulary.departments, &r) + pick(Vocabulary.regions, &r)
        case .project: return "Project " + pick(Vocabulary.projects, &r) + (r.index(4) == 0 ? " " + String(2 + r.index(98)) : "")
        case .task: return pick(Vocabulary.verbs, &r) + " " + pick(Vocabulary.objects, &r)
        case .word: return pick(Vocabulary.words, &r)
        case .words: return (0..<(2 + r.index(3))).map { _ in pick(Vocabulary.words, &r) }.joined(separator: " ")
        case .sentence:
            let words = (0..<(5 + r.index(10))).map { _ in pick(Vocabulary.words, &r) }
            let text = words.joined(separator: " ")
            return text.prefix(1).uppercased() + text.dropFirst() + "."
        case .color: return pick(Vocabulary.colors, &r)
        case .status: return pick(Vocabulary.statuses, &r)
        case .zip: return digits(5, &r)
        case .isbn: return isbn13(&r)
        }
    }

    @inline(__always)
    static func pick(_ list: [String], _ r: inout FixtureRandom) -> String { list[r.index(list.count)] }

    static func digits(_ n: Int, _ r: inout FixtureRandom) -> String {
        String((0..<n).map { _ in Character(Unicode.Scalar(UInt8(48 + r.index(10)))) })
    }

    /// ISBN-13 with a valid check digit (978/979 prefix).
    static func isbn13(_ r: inout FixtureRandom) -> String {
        var d = [9, 7, 8 + r.index(2)] + (0..<9).map { _ in r.index(10) }
        let sum = d.enumerated().reduce(0) { $0 + $1.element * ($1.offset % 2 == 0 ? 1 : 3) }
        d.append((10 - sum % 10) % 10)
        return d.map(String.init).joined()
    }

    /// "José Müller" → "jose.muller"; empty for names with no Latin letters.
    static func emailLocalPart(_ name: String) -> String {
        var out = ""
        for word in name.split(separator: " ") {
            let folded = foldedNames[String(word)] ?? asciiFold(String(word))
            guard !folded.isEmpty else { continue }
            if !out.isEmpty { out += "." }
            out += folded
        }
        return out
    }

    /// The vocabulary's name words, folded once: a million e-mail addresses
    /// then cost a lookup per word rather than a character-by-character fold.
    static let foldedNames: [String: String] = {
        var table: [String: String] = [:]
        for name in Vocabulary.firstNames + Vocabulary.lastNames + Vocabulary.eastAsianNames.flatMap({ $0.split(separator: " ").map(String.init) }) {
            table[name] = asciiFold(name)
        }
        return table
    }()

    static func slug(_ text: String) -> String {
        asciiFold(text).filter { $0.isLetter || $0.isNumber }
    }

    static let folds: [Character: String] = [
        "á": "a", "à": "a", "â": "a", "ä": "a", "ã": "a", "å": "a", "æ": "ae", "ç": "c", "č": "c", "ć": "c",
        "é": "e", "è": "e", "ê": "e", "ë": "e", "ě": "e", "í": "i", "ì": "i", "î": "i", "ï": "i", "ı": "i", "İ": "i",
        "ł": "l", "ñ": "n", "ń": "n", "ó": "o", "ò": "o", "ô": "o", "ö": "o", "õ": "o", "ø": "o", "ō": "o",
        "ř": "r", "ś": "s", "š": "s", "ß": "ss", "ú": "u", "ù": "u", "û": "u", "ü": "u", "ů": "u", "ý": "y",
        "ž": "z", "ź": "z", "ż": "z", "ğ": "g", "ş": "s", "ą": "a", "ę": "e",
    ]

    /// Lowercase ASCII letters of `text`, accents folded, other characters dropped.
    static func asciiFold(_ text: String) -> String {
        var out = ""
        for c in text.lowercased() {
            if let a = c.asciiValue {
                if (a >= 97 && a <= 122) || (a >= 48 && a <= 57) { out.append(c) }
            } else if let f = folds[c] {
                out += f
            }
        }
        return out
    }
}
