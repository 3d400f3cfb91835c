#!/usr/bin/env bash
# Peak resident memory of iterating a large result (PERFORMANCE.md, "Memory":
# a fetch with a batch size keeps at most a few batches of objects alive),
# each run in a process of its own under `/usr/bin/time -v`:
#   - the library: every employee of a COUNT-employee store (default 1M)
#     through `Context.fetchBatched` (batches of SIZE, default 1000), through
#     a plain `Context.fetch`, and through `fetch` with `fetchBatchSize`
#     (faults that stay loaded once read) — Tests/Benchmarks/Tools/BatchMemory;
#   - the shell: `FETCH Employee SORT BY salary BATCH SIZE` (streamed) and the
#     same without BATCH, printing CSV to /dev/null, with the `quarry` binary
#     in $QUARRY (default: .build/release/quarry, else .build/debug/quarry).
#
# Usage: Scripts/batched-fetch-memory.sh [COUNT] [SIZE]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
count=${1:-1000000}
size=${2:-1000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

(cd "$root/Tests/Benchmarks" && swift build -c release --product BatchMemory >&2)
tool="$root/Tests/Benchmarks/.build/release/BatchMemory"
quarry=${QUARRY:-}
if [ -z "$quarry" ]; then
    if [ -x "$root/.build/release/quarry" ]; then quarry="$root/.build/release/quarry"; else quarry="$root/.build/debug/quarry"; fi
fi

"$tool" make "$work/company.sqlite" "$count" >&2

# measure NAME COMMAND...: the peak RSS, the wall time, and what the command
# printed (its one line, or a line count and checksum to compare outputs).
measure() {
    local name=$1; shift
    /usr/bin/time -v "$@" > "$work/out.txt" 2> "$work/time.txt"
    local kb wall said
    kb=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$work/time.txt")
    wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$work/time.txt")
    if [ "$(wc -l < "$work/out.txt")" -le 1 ]; then said=$(cat "$work/out.txt")
    else said="$(wc -l < "$work/out.txt") lines, md5 $(md5sum < "$work/out.txt" | cut -c1-12)"; fi
    printf '%-34s peak RSS %8.1f MB   wall %8s   %s\n' "$name" "$(echo "$kb / 1024" | bc -l)" "$wall" "$said"
}

echo "$count employees, batches of $size; quarry: $quarry"
measure "library fetchBatched" "$tool" batched "$work/company.sqlite" "$size"
measure "library fetch (plain)" "$tool" plain "$work/company.sqlite"
measure "library fetch, fetchBatchSize" "$tool" faults "$work/company.sqlite" "$size"
measure "shell FETCH ... BATCH $size (csv)" "$quarry" --store "$work/company.sqlite" --mode csv -c "FETCH Employee SORT BY salary BATCH $size"
measure "shell FETCH (csv)" "$quarry" --store "$work/company.sqlite" --mode csv -c "FETCH Employee SORT BY salary"
