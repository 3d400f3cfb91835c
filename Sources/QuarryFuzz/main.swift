// quarry-fuzz: Quarry's seeded mutation fuzzer (issue 19), one target per
// reader of untrusted text. `quarry-fuzz TARGET SECONDS WORKDIR [SEED]`
// mutates the target's seeds for SECONDS and feeds each input to it.
//
// A crash kills the process, so each input is written to
// WORKDIR/TARGET.current before it runs; Scripts/fuzz.sh keeps that file as
// the crash case. An input that runs longer than the time limit is a
// timeout (the watchdog writes it and exits 3), and a resident size past the
// memory limit a leak or blow-up (exit 4). At the end, one line of figures:
// executions, executions per second, seeds, peak resident memory.
import Foundation
#if canImport(Glibc)
import Glibc
#endif

let arguments = CommandLine.arguments
guard arguments.count >= 4, let seconds = Double(arguments[2]),
      let target = Targets.all.first(where: { $0.name == arguments[1] }) else {
    let names = Targets.all.map(\.name).joined(separator: "|")
    FileHandle.standardError.write(Data("usage: quarry-fuzz \(names) SECONDS WORKDIR [SEED]\n".utf8))
    exit(64)
}
let workdir = arguments[3]
let seed = arguments.count > 4 ? UInt64(arguments[4]) ?? 1 : UInt64(Date().timeIntervalSince1970)
let timeLimit = Double(ProcessInfo.processInfo.environment["QUARRY_FUZZ_TIMEOUT"] ?? "") ?? 10
let memoryLimit = (Int(ProcessInfo.processInfo.environment["QUARRY_FUZZ_RSS_MB"] ?? "") ?? 2_048) << 20

let seeds = target.seeds(Seeds(root: FileManager.default.currentDirectoryPath)).map { Array($0.utf8) }
var mutator = Mutator(rng: SplitMix64(state: seed), seeds: seeds, tokens: target.tokens.map { Array($0.utf8) },
                      maximumLength: target.maximumLength)
let watchdog = Watchdog(path: workdir + "/" + target.name + ".current", timeLimit: timeLimit, memoryLimit: memoryLimit)

let start = Date()
var executions = 0
// The seeds themselves first, then mutations until the time is up.
var pending = seeds[...]
while Date().timeIntervalSince(start) < seconds {
    let input = pending.popFirst() ?? mutator.next()
    watchdog.begin(input)
    target.run(String(decoding: input, as: UTF8.self))
    watchdog.end()
    executions += 1
}
let elapsed = Date().timeIntervalSince(start)
print("\(target.name): \(executions) executions in \(Int(elapsed)) s (\(Int(Double(executions) / elapsed))/s), "
      + "\(seeds.count) seeds, seed \(seed), peak RSS \(Watchdog.peakResidentMB()) MB")
