# Sourced by Scripts/sanitizers.sh and Scripts/fuzz.sh: the one
# AddressSanitizer build both use, in .build-asan (or the folder
# QUARRY_SANITIZER_SCRATCH names: CI gives the plain build's, .build, so
# the dependencies compiled there are not compiled again). QUARRY_SANITIZER
# =address makes Package.swift instrument Quarry's own modules — with ASan
# and with libFuzzer's coverage instrumentation (inline 8-bit counters, PC
# table, comparison tracing — what `-sanitize=fuzzer` would add), so the
# fuzzers need no build of their own — and link ASan's runtime, as a shared
# library (Package.swift says why). In the test run the coverage hooks are
# the ASan runtime's no-ops. Both scripts must pass exactly these flags, or
# SwiftPM relinks everything.
asan_runtime_dir="$(dirname "$(dirname "$(readlink -f "$(command -v swiftc)")")")/lib/swift/clang/lib/linux"
export QUARRY_SANITIZER=address
asan_build_flags=(
    -Xlinker -rpath -Xlinker "$asan_runtime_dir"
    --scratch-path "${QUARRY_SANITIZER_SCRATCH:-.build-asan}"
)
# The Swift runtime's crash handler reads its own stack in a way ASan
# reports as an underflow (and its helper can hold the output pipe open);
# ASan's own report is the one wanted.
export SWIFT_BACKTRACE=enable=no
