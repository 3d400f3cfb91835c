#!/usr/bin/env bash
# Fuzz Quarry's readers of untrusted text with libFuzzer (coverage-guided,
# under AddressSanitizer; Sources/QuarryFuzz; issue 19).
#
#   Scripts/fuzz.sh TARGET|all [--minutes N | --seconds N] [--jobs J] [--seed S]
#   Scripts/fuzz.sh all --seconds 60 --jobs 2    # CI: every target, two at a time
#   Scripts/fuzz.sh TARGET --replay FILE...       # rerun saved inputs (a crash)
#
# Targets: parser (lexer, parser, printer round trip), evaluator, statements
# (the shell's statement parser), json (the JSON reader and the whole
# `eval --jsonl` interface), yaml-model, xml-model, factories. Seeds come
# from ../shared/conformance/peer-tests, ../shared/corpus and Examples/ (a
# missing folder is said, not fatal); what libFuzzer finds is kept in
# .build-asan/fuzz/corpus/TARGET (the build folder's) and reused by the next run.
#
# Builds quarry-fuzz in the AddressSanitizer build folder (the flags in
# Scripts/asan-build-flags.sh, shared with Scripts/sanitizers.sh) and links
# the toolchain's libFuzzer into it. Fails (exit 1) on any crash, ASan
# report, leak, timeout (one input over QUARRY_FUZZ_TIMEOUT seconds, default
# 10) or memory blow-up (over QUARRY_FUZZ_RSS_MB, default 2048); the input
# is kept in .build-asan/fuzz/crashes/ and printed. Add it to a regression
# test. Per target it prints executions and libFuzzer's coverage counts
# (cov: edges, ft: features) at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
source Scripts/asan-build-flags.sh

targets=(parser evaluator statements json yaml-model xml-model factories)
target="${1:-}"
shift || true
seconds=60
jobs=1
seed=""
replay=()
while [ $# -gt 0 ]; do
    case "$1" in
        --seconds) seconds="$2"; shift 2 ;;
        --minutes) seconds=$(( $2 * 60 )); shift 2 ;;
        --jobs) jobs="$2"; shift 2 ;;
        --seed) seed="$2"; shift 2 ;;
        --replay) shift; replay=("$@"); break ;;
        *) echo "unknown option $1" >&2; exit 64 ;;
    esac
done
if [ -z "$target" ]; then
    echo "usage: Scripts/fuzz.sh TARGET|all [--minutes N | --seconds N] [--jobs J] [--seed S] | TARGET --replay FILE...; targets: ${targets[*]}" >&2
    exit 64
fi
if [ "$target" = all ]; then run=("${targets[@]}"); else run=("$target"); fi

# libFuzzer's runtime without its main (quarry-fuzz calls LLVMFuzzerRunDriver).
runtime="$asan_runtime_dir/libclang_rt.fuzzer_no_main-x86_64.a"
[ -f "$runtime" ] || { echo "no libFuzzer runtime at $runtime" >&2; exit 2; }
swift build "${asan_build_flags[@]}" --product quarry-fuzz \
    -Xlinker -u -Xlinker LLVMFuzzerRunDriver -Xlinker --export-dynamic-symbol=LLVMFuzzerRunDriver \
    -Xlinker "$runtime" -Xlinker -lstdc++ >/dev/null
work="${QUARRY_SANITIZER_SCRATCH:-.build-asan}/fuzz"
mkdir -p "$work/crashes"
# A copy: a later `swift test` in the same build folder relinks quarry-fuzz without libFuzzer.
binary="$work/quarry-fuzz"
cp "$(swift build "${asan_build_flags[@]}" --show-bin-path)/quarry-fuzz" "$binary"

# ASan's redzones make debug stack frames several times larger: the
# parser's depth limit (400 levels of about five frames each) then needs
# more than the 8 MB main-thread stack (as in Scripts/sanitizers.sh; the
# parser target found 330 nested parentheses overflowing it).
ulimit -s 65536
export ASAN_OPTIONS="${ASAN_OPTIONS:-halt_on_error=1:detect_stack_use_after_return=0}"
# Leaks inside dependencies, each with its reason (shared with sanitizers.sh).
export LSAN_OPTIONS="${LSAN_OPTIONS:-suppressions=$PWD/Scripts/lsan-suppressions.txt:print_suppressions=0}"
if [ ${#replay[@]} -gt 0 ]; then
    exec "$binary" "$target" "$work" "${replay[@]}"
fi

options=(-max_total_time="$seconds" -timeout="${QUARRY_FUZZ_TIMEOUT:-10}" -rss_limit_mb="${QUARRY_FUZZ_RSS_MB:-2048}"
         -print_final_stats=1 -detect_leaks=1)
[ -n "$seed" ] && options+=(-seed="$seed")

# One target: its log in $work/TARGET.log, a line of figures, and on failure
# the kept input.
fuzz() {
    local t=$1 log="$work/$1.log" status=0
    "$binary" "$t" "$work" "${options[@]}" >"$log" 2>&1 || status=$?
    local runs cov
    runs=$(grep -o 'stat::number_of_executed_units: [0-9]*' "$log" | grep -o '[0-9]*$' || echo "?")
    cov=$(grep -o 'cov: [0-9]* ft: [0-9]*' "$log" | tail -1 || true)
    if [ "$status" -eq 0 ]; then
        echo "ok   $t: ${runs} executions in ${seconds} s, ${cov:-no coverage line}, corpus $(ls "$work/corpus/$t" | wc -l) inputs"
        return 0
    fi
    echo "FAIL $t (exit $status): ${runs} executions, ${cov:-no coverage line}; libFuzzer's report:" >&2
    grep -E -A25 'ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|Fatal error|ALARM|out-of-memory' "$log" | head -60 >&2 || tail -40 "$log" >&2
    local kept
    for kept in $(grep -o "Test unit written to [^ ]*" "$log" | awk '{print $5}'); do
        echo "input kept in $kept (replay: Scripts/fuzz.sh $t --replay $kept):" >&2
        head -c 2000 "$kept" | cat -v >&2
        echo >&2
    done
    return 1
}

failed=0
running=0
for t in "${run[@]}"; do
    if [ "$running" -ge "$jobs" ]; then
        wait -n || failed=1
        running=$((running - 1))
    fi
    fuzz "$t" &
    running=$((running + 1))
done
while [ "$running" -gt 0 ]; do
    wait -n || failed=1
    running=$((running - 1))
done
exit "$failed"
