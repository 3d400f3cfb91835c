// `quarry_like` and `quarry_contains` on PostgreSQL in time linear in the
// text (issue 19), by handing the matching to PostgreSQL's own LIKE and
// strpos over text where every character is one code point.
//
// Why not a regular expression: the earlier `quarry_like` translated the
// pattern to one, with a lookahead per literal for the grapheme rules, and a
// 10,000-character pattern with wildcards ran for minutes per row; even
// without lookaheads, compiling a regular expression costs PostgreSQL time
// quadratic in its length (10,000 literals: 0.4 s, 20,000: 2.7 s). And
// `quarry_contains` walked the matches with `substr` and `strpos` on
// character positions, quadratic in the text when a needle kept matching
// inside characters (`q` in `q̇q̇q̇…`).
//
// How: a character of several code points (CR LF, or a base and its marks:
// the grapheme rules these functions have always modelled, see
// PostgresFunctions.swift) becomes one code point that neither string
// holds, taken from a plane neither uses (`quarry_code_plane`: 16, 15, or
// an unassigned one): each such character of the pattern or needle gets a
// code of its own (`quarry_grapheme_codes`), any other in the text one
// shared code that only a wildcard matches (`quarry_graphemes`). Then every
// character is one code point, as PostgreSQL's LIKE (`_`, `%`) and strpos
// count them, so `*` and `?` become `%` and `_`, literal `%`, `_` and `\`
// are escaped, and a needle can only match whole characters. PostgreSQL's
// LIKE backtracks only to the last `%` and skips `_` runs after a `%` in one
// step, so `*` and 50 `?` over 1 MB is linear; its worst case (`*` then a
// long literal run that almost matches everywhere) is the text's length
// times that run's, as in the evaluator's greedy matcher.
//
// What the evaluator decides over bytes (an ASCII pattern without CR LF, or
// an ASCII needle, against ASCII text, where CR LF is two characters) is
// matched here with no encoding at all, and so is text without any
// character of several code points.
extension PostgresFunctions {
    /// `[^…]`-free class of the grapheme extenders, for use inside brackets.
    static var extenderRanges: String { String(extenders.dropFirst().dropLast()) }

    /// The helpers and the two matchers, in the order they must be created.
    static var graphemeMatchers: [String] {
        let ext = extenders
        let inner = extenderRanges
        let plane = #"""
        CREATE OR REPLACE FUNCTION quarry_code_plane(a text, b text) RETURNS integer
        LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $fn$
        DECLARE plane integer; r text;
        BEGIN
          -- Private-use planes first, then unassigned ones (never plane 14:
          -- its tags and variation selectors are marks).
          FOREACH plane IN ARRAY ARRAY[16, 15, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4] LOOP
            r := '[' || chr(plane * 65536) || '-' || chr(plane * 65536 + 65533) || ']';
            IF a !~ r AND b !~ r THEN RETURN plane; END IF;
          END LOOP;
          RAISE EXCEPTION 'quarry: LIKE and CONTAINS cannot compare text that uses code points of planes 4 to 13, 15 and 16 alike';
        END
        $fn$
        """#
        // A code for each distinct character of several code points in t.
        // Scanning left to right keeps the matches on character boundaries:
        // each one takes a base (or CR LF) with all its marks.
        let codes = #"""
        CREATE OR REPLACE FUNCTION quarry_grapheme_codes(t text, plane integer) RETURNS jsonb
        LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $fn$
        DECLARE codes jsonb; top bigint;
        BEGIN
          SELECT coalesce(jsonb_object_agg(g, chr(plane * 65536 + least(k, 65533)::integer)), '{}'), coalesce(max(k), 0)
            INTO codes, top
            FROM (SELECT g, row_number() OVER (ORDER BY g) AS k
                    FROM (SELECT DISTINCT m[1] AS g FROM regexp_matches(t, '\r\n|.\#(ext)+', 'g') AS m) d) u;
          IF top > 65532 THEN
            RAISE EXCEPTION 'quarry: LIKE and CONTAINS support at most 65,532 different characters of several code points in a pattern or needle';
          END IF;
          RETURN codes;
        END
        $fn$
        """#
        // The text with every character of several code points replaced by
        // its code, or by `other` when it has none. A few codes: one
        // regexp_replace each (the lookarounds keep it to whole characters:
        // no mark may follow, a LF may not be the second half of CR LF, a
        // leading run of marks is a character only at the start), then one
        // for all the rest, then CR LF. Many: runs of one-code-point characters and the
        // others come as rows (the lookaheads keep a base that carries marks
        // out of a run), which is linear too but slower per character.
        let graphemes = #"""
        CREATE OR REPLACE FUNCTION quarry_graphemes(s text, codes jsonb, other text) RETURNS text
        LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $fn$
        DECLARE g text; code text;
        BEGIN
          IF (SELECT count(*) FROM jsonb_object_keys(codes)) <= 16 THEN
            FOR g, code IN SELECT key, value FROM jsonb_each_text(codes) WHERE key <> E'\r\n' LOOP
              s := regexp_replace(s, CASE WHEN g ~ '^\#(ext)' THEN '^' WHEN left(g, 1) = E'\n' THEN '(?<!\r)' ELSE '' END
                                     || regexp_replace(g, '([^[:alnum:]\u0080-\U0010FFFF])', '\\\1', 'g') || '(?!\#(ext))',
                                  code, 'g');
            END LOOP;
            -- CR LF last: a code in its place would carry the marks after it.
            s := regexp_replace(s, '(?:[^\n]|(?<!\r)\n)\#(ext)+', other, 'g');
            RETURN replace(s, E'\r\n', coalesce(codes ->> E'\r\n', other));
          END IF;
          RETURN (SELECT coalesce(string_agg(CASE WHEN m[1] = E'\r\n' OR m[1] ~ '^.\#(ext)'
                                                  THEN coalesce(codes ->> m[1], other) ELSE m[1] END, '' ORDER BY n), '')
                    FROM regexp_matches(s, '(?:[^\#(inner)\r](?!\#(ext))|\r(?![\n\#(inner)]))+|\r\n|.\#(ext)*', 'g')
                         WITH ORDINALITY AS r(m, n));
        END
        $fn$
        """#
        let contains = #"""
        CREATE OR REPLACE FUNCTION \#(sql(.contains))(s text, n text, flags integer) RETURNS boolean
        LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $fn$
        DECLARE fs text; fn text; plane integer; codes jsonb; other text;
        BEGIN
          IF octet_length(n) <> char_length(n) THEN n := normalize(n, NFC); END IF;
          fn := \#(sql(.fold))(n, flags) COLLATE "C";
          IF fn = '' THEN RETURN false; END IF;
          fs := \#(sql(.fold))(s, flags) COLLATE "C";
          -- The evaluator compares an ASCII needle with ASCII text over bytes.
          IF octet_length(fn) = char_length(fn) AND octet_length(s) = char_length(s) THEN RETURN strpos(fs, fn) > 0; END IF;
          IF fs !~ '\#(ext)|\r\n' AND fn !~ '\#(ext)|\r\n' THEN RETURN strpos(fs, fn) > 0; END IF;
          plane := quarry_code_plane(fs, fn);
          codes := quarry_grapheme_codes(fn, plane);
          other := chr(plane * 65536);
          RETURN strpos(quarry_graphemes(fs, codes, other), quarry_graphemes(fn, codes, other)) > 0;
        END
        $fn$
        """#
        // Tokens of the pattern: an escape with the character it makes
        // literal, CR LF, or a character with its marks. A backslash that
        // carries a mark is a character of its own, not an escape.
        let like = #"""
        CREATE OR REPLACE FUNCTION \#(sql(.like))(s text, p text, flags integer) RETURNS boolean
        LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $fn$
        DECLARE fs text; fp text; pl text; plane integer; codes jsonb;
        BEGIN
          IF p = '' THEN RETURN false; END IF;
          IF octet_length(p) <> char_length(p) THEN p := normalize(p, NFC); END IF;
          fp := \#(sql(.fold))(p, flags) COLLATE "C";
          fs := \#(sql(.fold))(s, flags) COLLATE "C";
          -- No wildcard and no escape: the pattern matches only itself.
          IF strpos(fp, '*') = 0 AND strpos(fp, '?') = 0 AND strpos(fp, '\') = 0 THEN RETURN fs = fp; END IF;
          -- The evaluator matches an ASCII pattern without CR LF against ASCII
          -- text over bytes; otherwise over characters, which are encoded
          -- as one code point each when some have several.
          IF NOT (octet_length(fp) = char_length(fp) AND octet_length(s) = char_length(s) AND strpos(fp, E'\r\n') = 0)
             AND (fs ~ '\#(ext)|\r\n' OR fp ~ '\#(ext)|\r\n') THEN
            plane := quarry_code_plane(fs, fp);
            codes := quarry_grapheme_codes(fp, plane);
            fs := quarry_graphemes(fs, codes, chr(plane * 65536));
          END IF;
          SELECT string_agg(CASE WHEN raw = '*' THEN '%' WHEN raw = '?' THEN '_'
                                 WHEN char_length(lit) > 1 THEN codes ->> lit
                                 WHEN lit IN ('%', '_', '\') THEN '\' || lit ELSE lit END, '' ORDER BY n)
            INTO pl
            FROM (SELECT n, m[1] AS raw,
                         CASE WHEN char_length(m[1]) > 1 AND left(m[1], 1) = '\' AND substr(m[1], 2, 1) !~ '\#(ext)'
                              THEN substr(m[1], 2) ELSE m[1] END AS lit
                    FROM regexp_matches(fp, '\\(?:\r\n|.\#(ext)*)|\r\n|.\#(ext)*', 'g') WITH ORDINALITY AS r(m, n)) t;
          RETURN fs LIKE pl COLLATE "C";
        END
        $fn$
        """#
        return [plane, codes, graphemes, contains, like]
    }
}
