// The README's Swift snippets compile and run: each ```swift block of
// README.md is copied, byte for byte, into a function below between
// `README snippet N` markers (its `import` lines are this file's imports), and
// a test checks the copies still match — so a snippet that stops compiling
// fails the build, and one edited in the README alone fails the match.
// The library snippet runs from the package root (it reads
// Examples/Models/Company.yaml) on an in-memory store, and its results are
// checked; the Core Data snippets name an app's files (`App.sqlite`), so
// they are compiled and not run.
import Foundation
import Testing
import QuarryCoreData
import QuarryStore

/// The host type the library snippet compiles a predicate for.
private final class EmployeeObject: TypedKeyValueAccessible, @unchecked Sendable {
    let name: String, salary: Int, department: String
    init(_ name: String, _ salary: Int, _ department: String) {
        self.name = name
        self.salary = salary
        self.department = department
    }
    func value(forKey key: String) -> Value? {
        switch key {
        case "name": return .string(name)
        case "salary": return .int(Int64(salary))
        case "department": return ["name": .string(department)]
        default: return nil
        }
    }
    static func accessor(forKey key: String) -> KeyAccessor<EmployeeObject>? {
        switch key {
        case "name": return .string { $0.name }
        case "salary": return .int { $0.salary }
        case "department": return .value { ["name": .string($0.department)] }
        default: return nil
        }
    }
}

@Suite struct ReadmeSnippetTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The README's ```swift blocks, without their `import` lines and the blank line after them.
    static func readmeSnippets() throws -> [String] {
        let text = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        var blocks: [String] = [], current: [Substring]? = nil
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil, line == "```swift" { current = []; continue }
            if current != nil, line == "```" { blocks.append(current!.joined(separator: "\n")); current = nil; continue }
            current?.append(line)
        }
        return blocks.map { block in
            var lines = block.split(separator: "\n", omittingEmptySubsequences: false)
            while let first = lines.first, first.hasPrefix("import ") || (first.isEmpty && lines.count > 1) { lines.removeFirst() }
            return lines.joined(separator: "\n")
        }
    }

    /// The copies in this file, dedented.
    static func copies() throws -> [String] {
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        var copies: [Int: [Substring]] = [:], open: Int? = nil, indent = 0
        for line in source.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.drop(while: { $0 == " " })
            if trimmed.hasPrefix("// README snippet "), let n = Int(trimmed.dropFirst("// README snippet ".count)) {
                open = n
                indent = line.count - trimmed.count
                copies[n] = []
                continue
            }
            if trimmed == "// end of README snippet" { open = nil; continue }
            // Blank lines carry no indentation; others lose the marker's.
            if let n = open { copies[n]!.append(trimmed.isEmpty ? trimmed : line.dropFirst(indent)) }
        }
        return copies.keys.sorted().map { copies[$0]!.joined(separator: "\n") }
    }

    @Test func everySnippetIsCopiedHereUnchanged() throws {
        let readme = try Self.readmeSnippets(), copies = try Self.copies()
        #expect(readme.count >= 3, "found \(readme.count) swift blocks in the README")
        #expect(readme.count == copies.count, "README has \(readme.count) swift blocks, this file copies \(copies.count)")
        for (i, (a, b)) in zip(readme, copies).enumerated() {
            #expect(a == b, "README snippet \(i + 1) differs from its copy here:\n\(a)\n--- copy ---\n\(b)")
        }
    }

    @Test func theLibrarySnippetRuns() throws {
        guard FileManager.default.fileExists(atPath: "Examples/Models/Company.yaml") else {
            Issue.record("run from the package root: the snippet reads Examples/Models/Company.yaml")
            return
        }
        let objects: [Value] = [.object(ObjectReference(EmployeeObject("Ann", 90_000, "Sales"))),
                                .object(ObjectReference(EmployeeObject("Bo", 40_000, "Sales")))]
        struct Settings: Codable { var dark = true }
        let mySettings = Settings()
        let bytesFromACoreDataStore = try ValueTransformerRegistry.shared.transformer(named: "NSSecureUnarchiveFromData")
            .encode(.array([.string("a"), .string("b")]))
        // README snippet 1
        let model = try ModelReader.read(from: "Examples/Models/Company.yaml")
        let store = try SQLStore(path: ":memory:", model: model)   // a file path; or SQLStore(postgres: "postgres://...", model: model) with QuarryPostgres
        let context = Context(store: store)
        let sales = try context.insert("Department")
        try sales.setValue("Sales", forKey: "name")          // Value has literals: "Sales", 50_000, 2.5, true, [1, 2], ["k": 1]
        try context.save()                                   // validated, then one transaction

        var request = FetchRequest(entity: "Employee",
                                   predicate: try Parser.parsePredicate("department.name == %@ AND salary > %@",
                                                                        arguments: ["Sales", 50_000]))
        request.sortDescriptors = [QuerySortDescriptor("name", caseInsensitive: true)]
        let employees = try context.fetch(request)           // lowered to SQL, the rest in memory
        let plan = try store.explain(request)                 // the SQL and its bound arguments

        let predicate = try Parser.parsePredicate("name BEGINSWITH[cd] 'jo'")
        let matches = try Evaluator.compile(predicate).evaluate(["name": "José"])   // true

        // Core Data's other request shapes: sub-entities left out, IDs only, and a
        // model's template with its $variables.
        request.includesSubentities = false                   // FETCH ONLY Employee
        let ids = try context.fetchObjectIDs(request)         // [ObjectID], no objects made
        let rich = try context.fetch(try FetchRequest(template: "onBigProjects", in: model,
                                                      substitutionVariables: ["minimum": 100_000]))
        request.includesSubentities = true
        // Transient attributes live only in a context's objects: a fetch whose SQL
        // would need one is refused (B007); `context.fetch(request, engine: .memory)`
        // judges it in memory.

        // Validation hooks (Core Data's validateValue:forKey: and validateForInsert/
        // Update/Delete), registered by entity on the context (sub-entities inherit
        // them) and run on save with the model's rules: a key validator may return a
        // corrected value; every failure (hooks' and model's) comes in one
        // ValidationError, and nothing is written.
        context.validationHooks.validate("Employee", key: "name") { value, _ in
            guard case .string(let s) = value else { return .valid }
            return .corrected(.string(s.trimmingCharacters(in: .whitespaces)))
        }
        context.validationHooks.validateForDelete("Department") { d in
            if d["name"] == .string("Sales") { throw ValidationHookError("Sales cannot close") }
        }

        // Fetched properties read like to-many properties: the query runs on first
        // access ($FETCH_SOURCE bound to the object), then is cached until
        // refresh(_:mergeChanges:), rollback(), reset() or a save of the context.
        // let recent = try department.fetchedObjects(forKey: "recentHires")   // or department["recentHires"]: an array

        // Transformable attributes: a value is stored as the bytes of the
        // transformer the model names (Core Data's keyed archive,
        // NSSecureUnarchiveFromData, by default; JSON and binary property lists
        // built in; your own registered by name) and read back decoded; a name
        // nobody registered keeps bytes (other values are refused, naming it).
        // In predicates `== nil`/`!= nil`
        // run in SQL, any other test in memory on the decoded values; sorting by
        // one is refused (B004) on every engine.
        let archive = try ValueTransformerRegistry.shared.transformer(named: "NSSecureUnarchiveFromData")
        let tags = try archive.decode(bytesFromACoreDataStore)        // .array([.string("a"), …])
        let settings = try JSONValueTransformer.encode(mySettings)     // a Codable value as a Value

        // Binary attributes that allow external storage (Xcode's "Allows External
        // Storage", `externalStorage: true` in YAML): on a SQLite store file a value
        // longer than ExternalBinaryStorage.defaultThreshold (100 KiB, about Core
        // Data's) is a file in `.<store name>_SUPPORT/_EXTERNAL_DATA/<UUID>` beside
        // the store — Core Data's folder — and the column holds its name (TEXT; a
        // short value stays a BLOB, so stores made before the flag read unchanged).
        // Every read path gives the bytes back. Files are written and fsynced
        // before COMMIT under fresh names, and removed only after the transaction
        // ended (replaced, deleted, cascaded or rolled-back values: the names a
        // write drops are noted by the connection's TEMP triggers, so a write
        // checks only those, whatever the number of files) or at open (a crashed
        // writer's, or rows deleted by another program such as sqlite3): no row
        // ever names a missing file. A PostgreSQL schema
        // (no folder beside it) and `:memory:` keep such values inline in the
        // column. Predicates and sorts follow the transformable rules above (nil
        // tests in SQL, the rest in memory; sorts refused); a batch update of one
        // runs object by object. `store.externalStorageThreshold` lowers it.

        // Large results in bounded memory: IDs only, a batch of objects loaded per
        // query on first read, at most 3 batches alive (older ones leave the context
        // unless you still hold their objects or they have unsaved changes).
        request.fetchBatchSize = 1000
        request.returnsObjectsAsFaults = false               // the first batch comes loaded (Core Data's flag; default true)
        request.relationshipKeyPathsForPrefetching = ["department", "projects"]   // one query per path per batch
        for employee in try context.fetchBatched(request) { _ = employee.object(forKey: "department")?["name"] }   // no query

        // Your own types answer `value(forKey:)` (KeyValueAccessible); adopting
        // TypedKeyValueAccessible as well (typed accessors per key) lets a predicate
        // compiled for the type read its properties directly, key paths resolved once.
        let filter = try Evaluator.compile(try Parser.parsePredicate("department.name == 'Sales' AND salary > 50000"),
                                           for: EmployeeObject.self)
        let hits = try filter.filter(objects)                // objects: [Value], e.g. .object(ObjectReference(e))

        // Values are Hashable and Codable (the tagged JSON of `quarry eval --jsonl`:
        // {"$date": …}, {"$uuid": …}), and bridge Foundation's types.
        let row: Value = ["name": "Zoë", "start": Value(Date()), "id": Value(UUID())]
        let json = try JSONEncoder().encode(row)
        let again = try JSONDecoder().decode(Value.self, from: json)   // == row

        // Every error is a QuarryError: a stable code (the shell's), a message,
        // where it points, hints; and a LocalizedError.
        do { _ = try context.fetch(FetchRequest(entity: "Employe")) } catch let error as any QuarryError {
            print(error.report.code, error.report.message)   // B001 unknown entity 'Employe'; did you mean 'Employee'?
        }
        // end of README snippet

        // What the snippet's comments promise.
        #expect(try context.count(FetchRequest(entity: "Department")) == 1)
        #expect(employees.isEmpty && ids.isEmpty && rich.isEmpty)
        #expect(plan.sql.sql.contains("SELECT") && plan.sql.arguments.count == 2)
        #expect(matches == true)
        #expect(hits.count == 1)
        #expect(again == row)
        #expect(tags == .array([.string("a"), .string("b")]))
        #expect(try JSONValueTransformer.decode(Settings.self, from: settings).dark)
        do { _ = try context.fetch(FetchRequest(entity: "Employe")); Issue.record("no error") } catch let error as any QuarryError {
            #expect(error.report.code == "B001" && error.report.message == "unknown entity 'Employe'; did you mean 'Employee'?")
            #expect(error.localizedDescription == "\(error)")
        } catch {
            Issue.record("\(type(of: error)) is not a QuarryError")
        }
    }

    @Test func theHistorySnippetRuns() throws {
        guard FileManager.default.fileExists(atPath: "Examples/Models/Company.yaml") else {
            Issue.record("run from the package root: the snippet reads Examples/Models/Company.yaml")
            return
        }
        let store = try SQLStore(path: ":memory:", model: try ModelReader.read(from: "Examples/Models/Company.yaml"))
        let reader = Context(store: store)
        // README snippet 2
        try store.setHistoryTracking(true)                  // kept in the store: every writer records from now on
        let writer = Context(store: store)
        writer.transactionAuthor = "importer"
        writer.name = "background"
        let ann = try writer.insert("Department")
        try ann.setValue("Research", forKey: "name")
        try writer.save()                                   // one transaction, one change per object

        var last: HistoryToken? = nil                       // Codable: a process keeps its last token
        let transactions = try store.history(after: last)   // [HistoryTransaction], Sendable values
        for t in transactions {
            print(t.token, t.author ?? "-", t.kind, t.changes.map { "\($0.type) \($0.objectID) \($0.changedKeys)" })
        }
        reader.merge(history: transactions)                 // refreshes, drops and inserts as merge(changes:) does
        last = transactions.last?.token ?? last
        try store.deleteHistory(before: last!)              // trims what every reader has seen (not `last` itself)
        // end of README snippet
        #expect(transactions.count == 1 && transactions[0].author == "importer" && transactions[0].changes.map(\.type) == [.insert])
        #expect(try store.history().map(\.token) == [last!])
        #expect(try reader.count(FetchRequest(entity: "Department")) == 1)
    }

    @Test func theChildContextSnippetRuns() throws {
        guard FileManager.default.fileExists(atPath: "Examples/Models/Company.yaml") else {
            Issue.record("run from the package root: the snippet reads Examples/Models/Company.yaml")
            return
        }
        let store = try SQLStore(path: ":memory:", model: try ModelReader.read(from: "Examples/Models/Company.yaml"))
        let context = Context(store: store)
        // README snippet 3
        let scratch = Context(parent: context)
        let research = try scratch.insert("Department")
        try research.setValue("Research", forKey: "name")
        try scratch.save()                                  // into `context`: still unsaved there
        assert(context.insertedObjects.count == 1)
        try context.save()                                  // now in the store; `research` has its permanent ID
        // end of README snippet
        #expect(!research.objectID.isTemporary)
        #expect(try store.fetch(FetchRequest(entity: "Department")).count == 1)
    }

    @Test func theContainerSnippetRuns() async throws {
        guard FileManager.default.fileExists(atPath: "Examples/Models/Company.yaml") else {
            Issue.record("run from the package root: the snippet reads Examples/Models/Company.yaml")
            return
        }
        let model = try ModelReader.read(from: "Examples/Models/Company.yaml")
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: NSTemporaryDirectory() + "queues.sqlite" + suffix) }
        // README snippet 4
        let container = try StoreContainer(path: NSTemporaryDirectory() + "queues.sqlite", model: model,
                                           viewQueue: DispatchQueue(label: "ui"))   // default: the main queue
        container.viewContext.automaticallyMergesChanges = true
        let id = try await container.performBackgroundTask { context in
            let ops = try context.insert("Department")
            try ops.setValue("Operations", forKey: "name")
            try context.save()                                // merged into the view context
            return ops.objectID
        }
        let name = await container.viewContext.perform { $0.object(with: id)["name"] }   // "Operations"
        // end of README snippet
        #expect(name == "Operations")
        #expect(!id.isTemporary)
    }

    /// Compiled, not run: they open an app's store.
    func coreDataSnippets() throws {
        do {
            // README snippet 5
            let store = try SQLStore(coreDataStore: "App.sqlite")            // or model: someModel
            let opened = try CoreDataStore.open(path: "App.sqlite", modelPath: "App.xcdatamodeld")
            print(opened.modelSource, opened.warnings)
            // end of README snippet
            _ = store
        }
        do {
            // README snippet 6
            let migration = try CoreDataStore.migrate(path: "App.sqlite", modelPath: "App.xcdatamodeld")   // dryRun: true to plan only
            // end of README snippet
            _ = migration
        }
        do {
            // README snippet 7
            let source = try SQLStore(coreDataStore: "App.sqlite")
            try StoreExport.copy(from: source, toFile: "data.sqlite")       // or to: an open SQLStore of the same model
            // end of README snippet
        }
    }
}
