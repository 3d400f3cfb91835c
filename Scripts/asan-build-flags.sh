# Sourced by Scripts/sanitizers.sh and Scripts/fuzz.sh: the one
# AddressSanitizer build both use, in .build-asan. Its Swift modules also
# carry libFuzzer's coverage instrumentation (inline 8-bit counters, PC
# table, comparison tracing — what `-sanitize=fuzzer` would add), so the
# fuzzers need no build of their own: CI compiles the package three times
# (plain, ASan, TSan), not four. In the test run the instrumentation's hooks
# are the ASan runtime's no-ops. Both scripts must pass exactly these flags,
# or SwiftPM recompiles everything.
#
# The ASan runtime is linked as a shared library, not statically: `quarry`
# links the Swift runtime statically with `--exclude-libs ALL`
# (Package.swift), which would also hide a static ASan's malloc and free
# from libc and libreadline, so memory they allocate (getline under
# readLine(), readline's lines) would be freed by ASan as "not malloc()-ed".
asan_runtime_dir="$(dirname "$(dirname "$(readlink -f "$(command -v swiftc)")")")/lib/swift/clang/lib/linux"
asan_build_flags=(
    --sanitize=address
    -Xswiftc -sanitize-coverage=edge,inline-8bit-counters,pc-table,trace-cmp
    -Xswiftc -Xclang-linker -Xswiftc -shared-libasan -Xlinker -rpath -Xlinker "$asan_runtime_dir"
    --scratch-path .build-asan
)
# The Swift runtime's crash handler reads its own stack in a way ASan
# reports as an underflow (and its helper can hold the output pipe open);
# ASan's own report is the one wanted.
export SWIFT_BACKTRACE=enable=no
