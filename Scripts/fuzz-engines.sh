#!/usr/bin/env bash
# The differential fuzzer, longer than CI's run:
#   Scripts/fuzz-engines.sh [--count N] [--seed S] [--models M] [--postgres]
# runs N random predicates (default 100,000) from seed S (default: a new
# one, printed) through the memory engine and SQLite's SQL — and
# PostgreSQL's with --postgres (a throwaway server) or when
# QUARRY_POSTGRES_URL is set — on the Company store, then N more spread
# over M random models (default 10; half filled by QuarryFixtures with edge
# cases), and prints every minimal disagreement with a ready-to-run quarry
# command. Builds the tests first if needed.
set -euo pipefail
cd "$(dirname "$0")/.."
count=100000
seed=""
postgres=0
models=10
while [ $# -gt 0 ]; do
    case "$1" in
        --count) count="$2"; shift 2 ;;
        --seed) seed="$2"; shift 2 ;;
        --models) models="$2"; shift 2 ;;
        --postgres) postgres=1; shift ;;
        *) echo "usage: $0 [--count N] [--seed S] [--models M] [--postgres]" >&2; exit 2 ;;
    esac
done
[ -n "$seed" ] || seed=$(od -An -N8 -tu8 /dev/urandom | tr -d ' ')
[ "$models" -gt 0 ] || models=1
export QUARRY_FUZZ_COUNT="$count" QUARRY_FUZZ_SEED="$seed"
export QUARRY_FUZZ_MODELS="$models" QUARRY_FUZZ_MODEL_COUNT=$(( (count + models - 1) / models ))
swift build --build-tests >/dev/null
run=(swift test --skip-build --filter 'EngineFuzzTests|RandomModelFuzzTests')
if [ "$postgres" = 1 ]; then
    exec Scripts/postgres-test-server.sh run -- "${run[@]}"
fi
exec "${run[@]}"
