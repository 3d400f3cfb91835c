// quarry-stress-writer: one writer process of the multi-process stress
// (Tests/QuarryStoreTests/MultiProcessStressTests.swift starts eight).
// It opens its own connection, makes `--saves` saves incrementing counter
// `--counter` under `--policy` (QuarryStressWriting's CounterWriter, the
// loop the in-process stress tests run), prints `conflicts N` and exits 0;
// on any error it prints the error and exits 1. Not installed with
// `quarry`: a test tool.
//
//   quarry-stress-writer --sqlite PATH --counter PK --policy error --saves 5000
//   quarry-stress-writer --postgres-schema S --counter PK --policy rollback --saves 5000
//     (the server: QUARRY_POSTGRES_URL)
import Foundation
import QuarryPostgres
import QuarryStore
import QuarryStressWriting

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("quarry-stress-writer: \(message)\n".utf8))
    exit(1)
}

var options: [String: String] = [:]
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let name = arguments.next() {
    guard name.hasPrefix("--"), let value = arguments.next() else { fail("expected --NAME VALUE pairs, got '\(name)'") }
    options[String(name.dropFirst(2))] = value
}
guard let counter = options["counter"].flatMap(Int64.init), let saves = options["saves"].flatMap(Int.init),
      let policy = options["policy"].flatMap(MergePolicy.init(rawValue:)) else {
    fail("usage: (--sqlite PATH | --postgres-schema SCHEMA) --counter PK --policy \(MergePolicy.allCases.map(\.rawValue).joined(separator: "|")) --saves N")
}
do {
    let url = try ProcessInfo.processInfo.environment["QUARRY_POSTGRES_URL"].map(PostgresURL.init)
    let store = try CounterWriter.open(sqlitePath: options["sqlite"], postgresURL: url, postgresSchema: options["postgres-schema"])
    let conflicts = try CounterWriter.increment(Context(store: store), ObjectID(entity: "Counter", primaryKey: counter), policy: policy, saves: saves)
    store.database.close()
    print("conflicts \(conflicts)")
} catch {
    fail("\(error)")
}
