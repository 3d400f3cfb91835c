#!/usr/bin/env bash
# Fuzz Quarry's readers of untrusted text with its seeded mutation fuzzer
# (Sources/QuarryFuzz; issue 19).
#
#   Scripts/fuzz.sh TARGET [--minutes N | --seconds N] [--seed S]
#   Scripts/fuzz.sh all --seconds 60        # every target for its CI budget
#
# Targets: parser (lexer, parser, printer round trip), evaluator, statements
# (the shell's statement parser), json (the JSON reader and the whole
# `eval --jsonl` interface), yaml-model, xml-model, factories. Seeds come
# from ../shared/conformance/peer-tests, ../shared/corpus and Examples/ (a
# missing folder is said, not fatal).
#
# Fails (exit 1) on any crash, timeout (one input over QUARRY_FUZZ_TIMEOUT
# seconds, default 10) or memory blow-up (resident size over
# QUARRY_FUZZ_RSS_MB, default 2048); the input is kept in
# .build/fuzz/crashes/ and printed. Add it to a regression test.
#
# Why not libFuzzer: `swiftc -sanitize=fuzzer` works on this toolchain (a
# one-file target links and finds a planted bug in seconds), but fuzzing the
# package's modules that way needs a second build of them and their
# dependencies (Yams; PostgresNIO and SwiftNIO under QuarryShell) with the
# fuzzer's instrumentation, which would roughly double CI's build time; that
# was not attempted. This mutation fuzzer reuses the ordinary debug build,
# has no coverage feedback, and leans on seeds and token lists instead.
set -euo pipefail
cd "$(dirname "$0")/.."

targets=(parser evaluator statements json yaml-model xml-model factories)
target="${1:-}"
shift || true
seconds=60
seed="$(date +%s)"
while [ $# -gt 0 ]; do
    case "$1" in
        --seconds) seconds="$2"; shift 2 ;;
        --minutes) seconds=$(( $2 * 60 )); shift 2 ;;
        --seed) seed="$2"; shift 2 ;;
        *) echo "unknown option $1" >&2; exit 64 ;;
    esac
done
if [ -z "$target" ]; then
    echo "usage: Scripts/fuzz.sh TARGET|all [--minutes N | --seconds N] [--seed S]; targets: ${targets[*]}" >&2
    exit 64
fi
if [ "$target" = all ]; then run=("${targets[@]}"); else run=("$target"); fi

swift build --product quarry-fuzz >/dev/null
binary="$(swift build --show-bin-path)/quarry-fuzz"
work=.build/fuzz
mkdir -p "$work/crashes"

failed=0
for t in "${run[@]}"; do
    status=0
    "$binary" "$t" "$seconds" "$work" "$seed" || status=$?
    if [ "$status" -ne 0 ]; then
        failed=1
        case "$status" in
            3) what="timeout" ;;
            4) what="memory" ;;
            *) what="crash (exit $status)" ;;
        esac
        kept="$work/crashes/$t-$(sha1sum "$work/$t.current" | cut -c1-12)"
        cp "$work/$t.current" "$kept"
        echo "FAIL $t: $what; seed $seed; input kept in $kept:" >&2
        head -c 2000 "$kept" | cat -v >&2
        echo >&2
    fi
done
exit "$failed"
