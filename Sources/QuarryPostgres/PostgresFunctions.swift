// The SQL functions Quarry's lowering calls, for PostgreSQL 15 (UTF8
// database, text columns `COLLATE "C"`): `quarry_fold(text, int)`,
// `quarry_begins / quarry_ends / quarry_contains / quarry_like(text, text,
// int)`, with the SQLite store's semantics (SQLiteFunctions.swift): flags 1 =
// [c], 2 = [d], 3 = both; NULL in gives NULL out (STRICT); an empty needle or
// pattern never matches; results equal the in-memory evaluator's.
//
// How folding is done without Swift on the server: PostgresFoldTable (in
// QuarrySQL) holds, per flag set, the scalars that fold to something else and
// the context rules of Foundation's diacritic stripping (which marks vanish
// after which bases). `quarry_fold` takes an ASCII fast path (`lower()` under
// "C" folds exactly A–Z), else drops marks with two `regexp_replace` passes,
// maps 1→1 / 1→0 scalars with one `translate()`, 1→many with a guarded
// `replace()` chain, and returns NFC — byte for byte SQLite's `quarry_fold`
// (NFC of `Folding.fold`) for NFC input. The matching functions compare folded
// text and respect Swift's grapheme rules at match edges (a match may not end
// before, nor start on, a combining mark or ZWJ; CR LF is one character).
//
// Regenerating: the tables are generated data (PostgresFoldTable+Data.swift);
// `QUARRY_REGENERATE_PG_FOLD=1 swift test --filter PostgresFoldingTableTests`
// rewrites them, and that test fails while they are stale. These statements
// are built from the tables at first use, so they follow automatically.
// Not exact (measured by Scripts/PGCompare, 38 of 554,025 answers): grapheme
// rules beyond marks/ZWJ/CR LF are not modelled — regional-indicator pairs
// (🇫🇷🇩🇪 CONTAINS 🇷🇩 is true here), Indic conjuncts (GB9c) and emoji ZWJ
// sequences for LIKE's `?`, Hangul jamo and Prepend at match edges. Input
// text is assumed NFC (needles and patterns are normalized here). LIKE and
// CONTAINS run in time linear in the text (PostgresFunctions+Graphemes.swift).
// MATCHES is not a function here: PostgresRegex (QuarrySQL) translates ICU
// patterns to PostgreSQL regular expressions at plan time.
import QuarryBinding
import QuarrySQL

public enum PostgresFunctions {
    /// A function's name in the statements below, read from the one enum the
    /// lowering and SQLite's registration read it from too.
    static func sql(_ f: QuarrySQLFunction) -> String { f.sqlName }

    /// A fingerprint of `installStatements` (FNV-1a of their text), kept in
    /// a store's metadata so that reopening replaces the functions only
    /// when this build's differ.
    public static let version: String = {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for statement in installStatements {
            for byte in statement.utf8 {
                hash ^= UInt64(byte)
                hash = hash &* 0x100_0000_01b3
            }
        }
        return String(hash, radix: 16)
    }()

    /// CREATE OR REPLACE FUNCTION statements, in order; run them in the
    /// target schema (idempotent).
    public static let installStatements: [String] = {
        var out: [String] = []
        for (flags, suffix) in [(1, "c"), (2, "d"), (3, "cd")] {
            out.append(foldFunction(PostgresFoldTable.committed(flags: flags), name: "quarry_fold_" + suffix))
        }
        out.append(dispatch)
        out.append(contentsOf: matchers)
        out.append(contentsOf: graphemeMatchers)
        return out
    }()

    // MARK: Building blocks

    /// A regular-expression escape for one scalar (valid in brackets too).
    static func regexEscape(_ v: UInt32) -> String {
        v <= 0xFFFF ? "\\u" + hex(v, 4) : "\\U" + hex(v, 8)
    }

    static func hex(_ v: UInt32, _ width: Int) -> String {
        let s = String(v, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, width - s.count)) + s
    }

    /// A bracket expression for the ranges.
    static func bracket(_ ranges: [ClosedRange<UInt32>]) -> String {
        "[" + ranges.map { r in
            r.lowerBound == r.upperBound ? regexEscape(r.lowerBound) : regexEscape(r.lowerBound) + "-" + regexEscape(r.upperBound)
        }.joined() + "]"
    }

    /// A `U&'…'` literal holding exactly these scalars.
    static func unicodeLiteral(_ scalars: [UInt32]) -> String {
        "U&'" + scalars.map { $0 <= 0xFFFF ? "\\" + hex($0, 4) : "\\+" + hex($0, 6) }.joined() + "'"
    }

    static var extenders: String { bracket(PostgresFoldTable.graphemeExtenders) }

    /// `quarry_fold_c` / `_d` / `_cd`: the non-ASCII path for one flag set.
    static func foldFunction(_ t: PostgresFoldTable, name: String) -> String {
        var body = "DECLARE t text := s;\nBEGIN\n"
        if !t.lowBases.isEmpty && !t.lowMarks.isEmpty {
            body += "  t := regexp_replace(t, '(" + bracket(t.lowBases) + ")" + bracket(t.lowMarks) + "+', '\\1', 'g');\n"
        }
        if !t.highBases.isEmpty && !t.highMarks.isEmpty {
            body += "  t := regexp_replace(t, '(" + bracket(t.highBases) + ")" + bracket(t.highMarks) + "', '\\1', 'g');\n"
        }
        let keys = t.map.keys.sorted()
        let initial = Set(t.initialOnly)
        let simple = keys.filter { t.map[$0]!.count == 1 && !initial.contains($0) }
        let dropped = keys.filter { t.map[$0]!.isEmpty && !initial.contains($0) }
        let multi = keys.filter { t.map[$0]!.count > 1 && !initial.contains($0) }
        if !simple.isEmpty || !dropped.isEmpty {
            body += "  t := translate(t, " + unicodeLiteral(simple + dropped) + ", "
                + unicodeLiteral(simple.map { t.map[$0]![0] }) + ");\n"
        }
        if !multi.isEmpty {
            var chain = "t"
            for k in multi { chain = "replace(" + chain + ", " + unicodeLiteral([k]) + ", " + unicodeLiteral(t.map[k]!) + ")" }
            body += "  IF t ~ '" + bracket(multi.map { $0...$0 }) + "' THEN t := " + chain + "; END IF;\n"
        }
        for k in t.initialOnly {
            body += "  IF left(t, 1) = " + unicodeLiteral([k]) + " THEN t := " + unicodeLiteral(t.map[k] ?? [k])
                + " || substr(t, 2); END IF;\n"
        }
        body += "  RETURN normalize(t, NFC);\nEND"
        return "CREATE OR REPLACE FUNCTION " + name + "(s text) RETURNS text LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $fn$\n"
            + body + "\n$fn$"
    }

    static let dispatch = """
    CREATE OR REPLACE FUNCTION \(sql(.fold))(s text, flags integer) RETURNS text
    LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $fn$
    BEGIN
      IF flags & 3 = 0 THEN RETURN s; END IF;
      IF octet_length(s) = char_length(s) THEN
        IF flags & 1 = 1 THEN RETURN lower(s COLLATE "C"); END IF;
        RETURN s;
      END IF;
      IF flags & 3 = 1 THEN RETURN quarry_fold_c(s); END IF;
      IF flags & 3 = 2 THEN RETURN quarry_fold_d(s); END IF;
      RETURN quarry_fold_cd(s);
    END
    $fn$
    """

    /// BEGINSWITH and ENDSWITH (CONTAINS and LIKE: PostgresFunctions+Graphemes.swift).
    static var matchers: [String] {
        let ext = extenders
        let begins = """
        CREATE OR REPLACE FUNCTION \(sql(.begins))(s text, n text, flags integer) RETURNS boolean
        LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $fn$
        DECLARE fs text; fn text; k integer; nx text;
        BEGIN
          IF octet_length(n) <> char_length(n) THEN n := normalize(n, NFC); END IF;
          fn := \(sql(.fold))(n, flags) COLLATE "C";
          IF fn = '' THEN RETURN false; END IF;
          fs := \(sql(.fold))(s, flags) COLLATE "C";
          k := char_length(fn);
          IF left(fs, k) <> fn THEN RETURN false; END IF;
          IF char_length(fs) = k THEN RETURN true; END IF;
          nx := substr(fs, k + 1, 1);
          IF nx ~ '\(ext)' THEN RETURN false; END IF;
          -- CR LF is one character, except where the evaluator decides on ASCII bytes.
          IF nx = E'\\n' AND right(fn, 1) = E'\\r'
             AND NOT (octet_length(fn) = k AND octet_length(left(s, k)) = k) THEN RETURN false; END IF;
          RETURN true;
        END
        $fn$
        """
        let ends = """
        CREATE OR REPLACE FUNCTION \(sql(.ends))(s text, n text, flags integer) RETURNS boolean
        LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $fn$
        DECLARE fs text; fn text; k integer; l integer; first text;
        BEGIN
          IF octet_length(n) <> char_length(n) THEN n := normalize(n, NFC); END IF;
          fn := \(sql(.fold))(n, flags) COLLATE "C";
          IF fn = '' THEN RETURN false; END IF;
          fs := \(sql(.fold))(s, flags) COLLATE "C";
          k := char_length(fn); l := char_length(fs);
          IF l < k OR right(fs, k) <> fn THEN RETURN false; END IF;
          IF l = k THEN RETURN true; END IF;
          first := left(fn, 1);
          IF first ~ '\(ext)' THEN RETURN false; END IF;
          IF first = E'\\n' AND substr(fs, l - k, 1) = E'\\r' AND octet_length(fn) <> k THEN RETURN false; END IF;
          RETURN true;
        END
        $fn$
        """
        return [begins, ends]
    }
}
