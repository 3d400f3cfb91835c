// BatchMemory: the program Scripts/batched-fetch-memory.sh runs under
// `/usr/bin/time -v` to measure the peak resident memory of iterating a
// large result — through a batched fetch result (`fetchBatched`), through a
// plain context fetch, and through a fetch with `fetchBatchSize` (faults
// that stay loaded) — each in a process of its own, so that no run's freed
// memory hides in another's figure. Not a benchmark: its parent folder is
// not `Benchmarks`, so the benchmark plugin leaves it alone.
//
//   BatchMemory make PATH [COUNT]     a store of COUNT employees (default 1M), 100 departments, model saved in it
//   BatchMemory batched PATH [SIZE]   iterate through fetchBatched, batches of SIZE (default 1000)
//   BatchMemory plain PATH            iterate through a plain fetch
//   BatchMemory faults PATH [SIZE]    iterate through fetch with fetchBatchSize SIZE
//
// Each iteration reads every employee's name and salary and prints the count
// and a checksum, so all three provably walk the same rows.
import CompanyData
import Foundation
import QuarryStore


func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(64)
}

let arguments = CommandLine.arguments
guard arguments.count >= 3 else { fail("usage: BatchMemory make|batched|plain|faults PATH [N]") }
let path = arguments[2]
let number = arguments.count > 3 ? Int(arguments[3]) : nil

func make(count: Int) throws {
    try? FileManager.default.removeItem(atPath: path)
    // The model beside the store, so that the store keeps it (quarry --store PATH reads it back).
    let modelPath = path + ".model.yaml"
    try companyModelYAML.write(toFile: modelPath, atomically: true, encoding: .utf8)
    let model = try ModelReader.read(from: modelPath)
    let store = try SQLStore(path: path, model: model, modelFile: modelPath)
    try fillCompanyStore(store, employees: count)
    print("made \(count) employees in \(path)")
}

func iterate(_ mode: String) throws {
    guard let model = try SQLStore.storedModel(at: path) else { fail("\(path) holds no model; run make first") }
    let store = try SQLStore(path: path, model: model)
    let context = Context(store: store)
    var request = FetchRequest(entity: "Employee", sortDescriptors: [QuerySortDescriptor("salary"), QuerySortDescriptor("name")])
    var count = 0, checksum = 0
    func read(_ object: ManagedObject) {
        count += 1
        if case .int(let salary)? = object["salary"] { checksum &+= Int(salary) }
        if case .string(let name)? = object["name"] { checksum &+= name.utf8.count }
    }
    switch mode {
    case "batched":
        request.fetchBatchSize = number ?? 1000
        for object in try context.fetchBatched(request) { read(object) }
    case "plain":
        for object in try context.fetch(request) { read(object) }
    case "faults":
        request.fetchBatchSize = number ?? 1000
        for object in try context.fetch(request) { read(object) }
    default:
        fail("unknown mode \(mode)")
    }
    print("\(mode): \(count) employees, checksum \(checksum), \(context.registeredObjects.count) objects still registered")
}

do {
    if arguments[1] == "make" { try make(count: number ?? 1_000_000) } else { try iterate(arguments[1]) }
} catch {
    fail("\(error)")
}
