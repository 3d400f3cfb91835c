// The mutations of Quarry's seeded fuzzer: byte flips, insertions and
// deletions, a chunk repeated many times (deep nesting, long chains), a
// splice of two seeds, and tokens of the target's language dropped in. No
// coverage feedback (libFuzzer is not used for the package here, see
// Scripts/fuzz.sh): breadth comes from the seeds and the token lists.

struct Mutator {
    var rng: SplitMix64
    let seeds: [[UInt8]]
    let tokens: [[UInt8]]
    let maximumLength: Int

    /// A new input: a seed with one to five mutations.
    mutating func next() -> [UInt8] {
        var input = seeds.isEmpty ? [] : seeds[pick(seeds.count)]
        for _ in 0...pick(5) { mutate(&input) }
        if input.count > maximumLength { input.removeLast(input.count - maximumLength) }
        return input
    }

    mutating func pick(_ n: Int) -> Int { n <= 1 ? 0 : Int(rng.next() % UInt64(n)) }

    mutating func mutate(_ input: inout [UInt8]) {
        let position = pick(input.count + 1)
        switch pick(10) {
        case 0 where !input.isEmpty:  // flip a bit
            let i = pick(input.count)
            input[i] ^= UInt8(1) << UInt8(pick(8))
        case 1:  // an interesting byte
            let bytes: [UInt8] = [0, 0x0A, 0x22, 0x27, 0x5C, 0x25, 0x24, 0x28, 0x29, 0x5B, 0x5D, 0x7B, 0x7D, 0x7F, 0x80, 0xC3, 0xE2, 0xF0, 0xFF]
            input.insert(bytes[pick(bytes.count)], at: position)
        case 2 where !input.isEmpty:  // delete a range
            let end = min(input.count, position + 1 + pick(16))
            if position < end { input.removeSubrange(position..<end) }
        case 3 where !input.isEmpty:  // repeat a chunk, often many times
            let start = pick(input.count)
            let chunk = Array(input[start..<min(input.count, start + 1 + pick(8))])
            let times = [2, 10, 100, 1_000, 5_000][pick(5)]
            let repeated = [UInt8]((0..<times).flatMap { _ in chunk }.prefix(maximumLength))
            input.insert(contentsOf: repeated, at: start)
        case 4 where seeds.count > 1:  // splice another seed in
            let other = seeds[pick(seeds.count)]
            let from = pick(other.count + 1)
            input.insert(contentsOf: other[from..<min(other.count, from + pick(64))], at: position)
        case 5, 6, 7 where !tokens.isEmpty:  // a token of the language
            input.insert(contentsOf: tokens[pick(tokens.count)], at: position)
        case 8 where !input.isEmpty:  // a digit run or a number at its edges
            let numbers = ["0", "-1", "9223372036854775807", "-9223372036854775808", "9223372036854775808", "1e308", "1e-400",
                           "0x7fffffffffffffff", "0xffffffffffffffffff", "1.0e99999", "65535", "4294967296"]
            input.insert(contentsOf: Array(numbers[pick(numbers.count)].utf8), at: position)
        default:  // swap two bytes
            guard input.count > 1 else { return }
            input.swapAt(pick(input.count), pick(input.count))
        }
    }
}

/// A small seeded generator, so a run can be repeated from its seed.
struct SplitMix64 {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
