#!/usr/bin/env bash
# Loads every Core Data model file in a folder with the built `quarry` and
# reports which ones fail (with the error) and what the reader warned about,
# grouped by the shape of the message (names and values blanked out), so a
# new batch of real models shows its causes at a glance. The test suite does
# the same for ../shared/corpus/models (CorpusModelTests); this is for other
# folders, e.g. a held-out corpus.
#
#   Scripts/check-models.sh [FOLDER]     (default ../shared/corpus/models)
#
# Files: *.xml, `contents`, *.xcdatamodel, *.xcdatamodeld, *.yaml, *.json.
# Exit status 1 when any model fails to load. Needs `swift build` first.
set -euo pipefail
cd "$(dirname "$0")/.."

folder=${1:-../shared/corpus/models}
quarry=.build/debug/quarry
[ -x "$quarry" ] || { echo "build first: swift build" >&2; exit 2; }
[ -d "$folder" ] || { echo "no such folder: $folder" >&2; exit 2; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
total=0
failed=0
while IFS= read -r -d '' file; do
    total=$((total + 1))
    # .schema reads the model and builds its tables in memory; stderr holds
    # the warnings, or the error.
    if ! "$quarry" --model "$file" --store :memory: -c ".schema" >/dev/null 2>"$tmp/err"; then
        failed=$((failed + 1))
        echo "FAIL ${file#"$folder"/}: $(grep -v ': warning: ' "$tmp/err" | head -1)"
    fi
    grep ': warning: ' "$tmp/err" >>"$tmp/warnings" || true
done < <(find "$folder" \( -name '*.xml' -o -name contents -o -name '*.yaml' -o -name '*.json' \
                          -o -name '*.xcdatamodeld' \) -not -path '*.xcdatamodeld/*' -print0 | sort -z)

echo "loaded $((total - failed)) / $total"
if [ -s "$tmp/warnings" ]; then
    echo "warnings by kind:"
    # Blank the quoted names and values and the entity names, keep the shape.
    sed -E "s/^.*: warning: //; s/'[^']*'/'…'/g; s/ of [A-Za-z0-9_]+:/ of …:/; s/[A-Za-z0-9_]+\.[A-Za-z0-9_]+ names/….… names/" \
        "$tmp/warnings" | sort | uniq -c | sort -rn
fi
[ "$failed" -eq 0 ]
