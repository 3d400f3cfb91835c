// Scenario 1 of PERFORMANCE.md: parsing a ~45-character predicate (target
// ≤ 1 µs median), and parsing stays linear in input length up to 1 MB.
import Benchmark
import QuarrySyntax

let typical = "department.name == 'Sales' AND salary > 50000"   // 45 characters

/// About 1 MB of OR-ed comparisons with non-ASCII strings.
let oneMegabyte: String = {
    let clause = "name BEGINSWITH[cd] 'Müller' OR "
    return String(repeating: clause, count: 1_000_000 / clause.utf8.count) + "TRUEPREDICATE"
}()

/// About 100 kB of the same, to show linearity against the 1 MB case.
let hundredKilobytes: String = {
    let clause = "name BEGINSWITH[cd] 'Müller' OR "
    return String(repeating: clause, count: 100_000 / clause.utf8.count) + "TRUEPREDICATE"
}()

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(metrics: [.wallClock, .mallocCountTotal, .throughput],
                                           maxDuration: .seconds(3))

    Benchmark("parse 45-char predicate", configuration: .init(scalingFactor: .kilo)) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try Parser.parsePredicate(typical))
        }
    }

    Benchmark("parse + print 45-char predicate", configuration: .init(scalingFactor: .kilo)) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(Printer.format(try Parser.parsePredicate(typical)))
        }
    }

    Benchmark("parse 100 kB predicate") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try Parser.parsePredicate(hundredKilobytes))
        }
    }

    Benchmark("parse 1 MB predicate") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try Parser.parsePredicate(oneMegabyte))
        }
    }
}
