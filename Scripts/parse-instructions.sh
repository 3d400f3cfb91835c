#!/usr/bin/env bash
# Instructions per parse for scenario 1 of PERFORMANCE.md, counted by
# callgrind. Wall-clock medians on the shared 2-core machines wander by tens
# of percent; instruction counts repeat exactly, so they are the way to
# compare two versions of the front end.
#
#   Scripts/parse-instructions.sh [REVISION] [MODE]
#
# REVISION: a git revision whose Sources/QuarrySyntax is measured, or
#           "worktree" (the default) for the files as they are.
# MODE:     parse  the 45-character predicate (default)
#           print  the same, parsed and printed back
#           100k   about 100 kB of OR-ed BEGINSWITH[cd] comparisons
#           1m     about 1 MB of the same
#
# QuarrySyntax is compiled on its own (swiftc -O -wmo, as a release build
# does) with a small driver that parses N times; the count is the difference
# between two values of N divided by their difference, so start-up and the
# one-off building of the input cancel out.
set -euo pipefail

revision=${1:-worktree}
mode=${2:-parse}
case "$mode" in
    parse|print) n1=10000; n2=20000 ;;
    100k) n1=2; n2=4 ;;
    1m) n1=1; n2=2 ;;
    *) echo "unknown mode '$mode' (parse, print, 100k, 1m)" >&2; exit 64 ;;
esac
command -v valgrind >/dev/null || { echo "valgrind is needed" >&2; exit 69; }

root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if [ "$revision" = worktree ]; then
    sources="$root/Sources/QuarrySyntax"
else
    git -C "$root" archive "$revision" Sources/QuarrySyntax | tar -x -C "$work"
    sources="$work/Sources/QuarrySyntax"
fi

cat > "$work/main.swift" <<'SWIFT'
// Parses the scenario-1 inputs N times; the sink keeps the work observable.
import QuarrySyntax
let arguments = CommandLine.arguments
let count = Int(arguments[1])!
let mode = arguments[2]
func repeated(_ bytes: Int) -> String {
    let clause = "name BEGINSWITH[cd] 'Müller' OR "
    return String(repeating: clause, count: bytes / clause.utf8.count) + "TRUEPREDICATE"
}
let typical = "department.name == 'Sales' AND salary > 50000"
let text = mode == "100k" ? repeated(100_000) : mode == "1m" ? repeated(1_000_000) : typical
var sink = 0
for _ in 0..<count {
    let predicate = try! Parser.parsePredicate(text)
    if mode == "print" { sink &+= Printer.format(predicate).utf8.count } else { sink &+= predicate.span.end }
}
print(sink)
SWIFT

(cd "$work" && swiftc -O -wmo -parse-as-library -module-name QuarrySyntax -emit-module -emit-library -static \
    -o libQuarrySyntax.a "$sources"/*.swift)
swiftc -O -I "$work" -L "$work" -lQuarrySyntax "$work/main.swift" -o "$work/driver"

instructions() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$work/driver" "$1" "$mode" 2>&1 |
        awk '/Collected/ { print $4 }'
}
a=$(instructions "$n1")
b=$(instructions "$n2")
echo "$revision $mode: $(( (b - a) / (n2 - n1) )) instructions per parse"
