#!/bin/bash
# Runs the PGCompare output against a PostgreSQL server and diffs with the
# evaluator's answers. Usage: Scripts/pg-compare.sh OUTDIR PORT
# (start a throwaway server first, see ../shared/design/SERVICES.md).
set -euo pipefail
out=$1; port=$2
psql() { command psql -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$port" -U postgres "$@"; }
PGCLIENTENCODING=UTF8 psql -f "$out/install.sql" >/dev/null
# The matches rows have one field fewer; the fold rows carry the result as a 4th field.
PGCLIENTENCODING=UTF8 psql -f "$out/query.sql" | sed 's/\t$//' | sort > "$out/actual.tsv"
total=$(wc -l < "$out/expected.tsv")
diff "$out/expected.tsv" "$out/actual.tsv" > "$out/diff.txt" || true
mism=$(grep -c '^>' "$out/diff.txt" || true)
echo "compared $total rows, $mism mismatches (see $out/diff.txt)"
