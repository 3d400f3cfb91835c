#!/usr/bin/env bash
# The test suite under Clang's sanitizers, each in a build folder of its own
# unless QUARRY_SANITIZER_SCRATCH names one (see below).
#
#   Scripts/sanitizers.sh address [swift test options...]
#       every test under AddressSanitizer (leaks included where the runtime
#       reports them), in .build-asan (the build Scripts/fuzz.sh shares; its
#       flags are in Scripts/asan-build-flags.sh)
#   Scripts/sanitizers.sh thread [swift test options...]
#       the concurrency suites under ThreadSanitizer, in .build-tsan
#       (suppressions, each with its reason: Scripts/tsan-suppressions.txt)
#
# QUARRY_SANITIZER_SCRATCH=.build runs either in the plain build's folder
# (CI does: the dependencies, built there uninstrumented, are reused; only
# Quarry's modules are compiled again, and the next plain build compiles
# them back).
#
# Extra options go to `swift test` (e.g. --filter). Run it under
# Scripts/postgres-test-server.sh to include the PostgreSQL suites. Exits
# with swift test's status: any sanitizer report fails the run (the
# runtimes abort on the first report; halt_on_error is set for ASan so a
# recoverable report cannot pass unnoticed).
set -euo pipefail
cd "$(dirname "$0")/.."

kind=${1:-}
shift || true
case "$kind" in
address)
    source Scripts/asan-build-flags.sh
    # ASan's redzones make debug stack frames several times larger: the
    # parser's depth limit (400 levels of about five frames each) then needs
    # more than the 8 MB that glibc gives new threads by default. It sizes
    # them from this limit.
    ulimit -s 65536
    # QUARRY_SANITIZER (exported by asan-build-flags.sh) also makes hang
    # guards wait ten times longer (QuarryPostgresTestSupport/HangGuard.swift).
    export ASAN_OPTIONS="${ASAN_OPTIONS:-halt_on_error=1:detect_stack_use_after_return=0}"
    export LSAN_OPTIONS="${LSAN_OPTIONS:-suppressions=$PWD/Scripts/lsan-suppressions.txt:print_suppressions=0}"
    exec swift test "${asan_build_flags[@]}" "$@"
    ;;
thread)
    # Read by Package.swift (Quarry's modules instrumented, the
    # dependencies not: it says why) and by the hang guards.
    export QUARRY_SANITIZER=thread
    export TSAN_OPTIONS="${TSAN_OPTIONS:-halt_on_error=1:suppressions=$PWD/Scripts/tsan-suppressions.txt}"
    export SWIFT_BACKTRACE=enable=no
    # 5 trials of each concurrent-writer race instead of 20: each is several
    # times slower under TSan, and the plain test run keeps all 20.
    export QUARRY_WRITER_TRIALS="${QUARRY_WRITER_TRIALS:-5}"
    # The suites that run work on several threads or connections at once,
    # all inside the test process: concurrent writers (SQLite and
    # PostgreSQL), busy timeouts and interrupts (SQLite, PostgreSQL's cancel
    # requests, work in memory), locked stores, PostgreSQL's connection
    # pool, concurrent evaluation of substitutions, values released on
    # another thread, the linter's concurrentPerform. Clean on 2026-11-26
    # (37 tests in 12 suites; no report, no suppression).
    # Also the suites that start the `quarry` executable and signal it from
    # another thread or process (REPLInterruptTests, PagerTests,
    # PartialFileTests' killed fixtures run). `quarry` normally links the
    # Swift runtime statically (Package.swift); so linked it dies at start
    # under TSan ("CHECK failed: sanitizer_allocator_secondary.h:297" in
    # free() under ProcessInfo.environment), and TSan's shared runtime does
    # not link against the static libdispatch (hidden dispatch_once_f). Here
    # it is linked the ordinary way instead (QUARRY_SHARED_STDLIB, read by
    # Package.swift): the sanitized executable is what is tested, not its
    # start-up time.
    export QUARRY_SHARED_STDLIB=1
    filter='ConcurrentWritersTests|BusyTimeout|Interrupting|PostgresTests.InterruptTests|MemoryInterruptTests|PoolTests|LockedStore|SubqueryAndSubstitutionTests|ParkedReleaseTests|LintConfigTests|REPLInterruptTests|PagerTests|PartialFileTests|QueueContextTests'
    exec swift test --scratch-path "${QUARRY_SANITIZER_SCRATCH:-.build-tsan}" --filter "$filter" "$@"
    ;;
*)
    echo "usage: Scripts/sanitizers.sh address|thread [swift test options...]" >&2
    exit 64
    ;;
esac
