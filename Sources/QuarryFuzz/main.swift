// quarry-fuzz: libFuzzer's driver for Quarry's readers of untrusted text
// (issue 19), one target per reader (Targets.swift).
//
//   quarry-fuzz TARGET WORKDIR [libFuzzer options] [input files]
//
// libFuzzer itself is not linked by SwiftPM: Scripts/fuzz.sh builds this
// executable in the AddressSanitizer build folder, whose modules carry
// libFuzzer's coverage instrumentation, and links the toolchain's
// libclang_rt.fuzzer_no_main into it, exporting LLVMFuzzerRunDriver. This
// file finds that entry point at run time, so the ordinary debug build (no
// libFuzzer) still links and says how to fuzz instead of failing to build.
//
// Before handing over, it writes the target's seeds (conformance data,
// ../shared/corpus, Examples/) into WORKDIR/seeds/TARGET and its tokens into
// a libFuzzer dictionary, and adds the corpus folders and limits to the
// options. Given input files instead of options only, libFuzzer replays them
// (how a crash is reproduced).
import Foundation
#if canImport(Glibc)
import Glibc
#endif

typealias TestOneInput = @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
typealias RunDriver = @convention(c) (UnsafeMutablePointer<Int32>, UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                                      TestOneInput) -> Int32

/// The target libFuzzer's callback runs (a C callback cannot capture it).
enum Running {
    nonisolated(unsafe) static var target: FuzzTarget?
}

func fail(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(status)
}

let arguments = CommandLine.arguments
guard arguments.count >= 3, let target = Targets.all.first(where: { $0.name == arguments[1] }) else {
    fail("usage: quarry-fuzz \(Targets.all.map(\.name).joined(separator: "|")) WORKDIR [libFuzzer options] [inputs]", status: 64)
}
// RTLD_DEFAULT (a null handle): the symbol is in this executable when libFuzzer was linked in.
guard let entry = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "LLVMFuzzerRunDriver") else {
    fail("quarry-fuzz was built without libFuzzer; run it through Scripts/fuzz.sh", status: 2)
}
let workdir = arguments[2]
let options = Array(arguments.dropFirst(3))
let manager = FileManager.default

var libFuzzerArguments = [arguments[0], "-max_len=\(target.maximumLength)", "-artifact_prefix=\(workdir)/crashes/\(target.name)-"]
if options.allSatisfy({ $0.hasPrefix("-") }) {
    // A fuzzing run: new inputs go to the corpus folder (kept between runs),
    // the seeds are read from theirs, the tokens from the dictionary.
    let corpus = "\(workdir)/corpus/\(target.name)", seedFolder = "\(workdir)/seeds/\(target.name)"
    for folder in [corpus, seedFolder, "\(workdir)/crashes"] { try manager.createDirectory(atPath: folder, withIntermediateDirectories: true) }
    for seed in target.seeds(Seeds(root: manager.currentDirectoryPath)) {
        // Named by content, so rewriting the seeds each run adds no duplicates.
        _ = manager.createFile(atPath: seedFolder + "/" + FNV.hex(Array(seed.utf8)), contents: Data(seed.utf8))
    }
    let dictionary = "\(workdir)/\(target.name).dict"
    try FuzzDictionary.text(target.tokens).write(toFile: dictionary, atomically: true, encoding: .utf8)
    libFuzzerArguments += ["-dict=\(dictionary)"] + options + [corpus, seedFolder]
} else {
    libFuzzerArguments += options
}

Running.target = target
var argc = Int32(libFuzzerArguments.count)
var argv: [UnsafeMutablePointer<CChar>?] = libFuzzerArguments.map { strdup($0) } + [nil]
let status = argv.withUnsafeMutableBufferPointer { buffer in
    var base = buffer.baseAddress
    return unsafeBitCast(entry, to: RunDriver.self)(&argc, &base) { data, size in
        let bytes = data.map { UnsafeBufferPointer(start: $0, count: size) } ?? UnsafeBufferPointer(start: nil, count: 0)
        Running.target!.run(String(decoding: bytes, as: UTF8.self))
        return 0
    }
}
exit(status)

/// libFuzzer's dictionary format: one quoted token a line, `\\`, `\"` and
/// `\xNN` escapes for everything that is not printable ASCII.
enum FuzzDictionary {
    static func text(_ tokens: [String]) -> String {
        tokens.map { token in
            "\"" + token.utf8.map { byte -> String in
                switch byte {
                case UInt8(ascii: "\\"): return "\\\\"
                case UInt8(ascii: "\""): return "\\\""
                case 0x20..<0x7F: return String(UnicodeScalar(byte))
                default: return "\\x" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
                }
            }.joined() + "\""
        }.joined(separator: "\n") + "\n"
    }
}

/// A 64-bit FNV-1a hash, in hex: a stable file name for a seed.
enum FNV {
    static func hex(_ bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return String(hash, radix: 16).leftPadded(to: 16)
    }
}

extension String {
    func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
