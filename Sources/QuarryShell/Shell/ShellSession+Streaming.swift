// `FETCH Entity … BATCH n` of whole objects, streamed: the rows come from a
// context's batched fetch (`fetchBatched`), one batch of objects in memory
// at a time, and each batch is printed as soon as it is read — so a fetch
// of a million rows prints from the first thousand on and never holds more.
// The text is exactly what the unbatched FETCH prints (the formatters print
// whole results through the same pieces, RowStream.swift) — except in
// `table` mode, which aligns each batch on its own (psql's FETCH_COUNT), so
// that its first rows print before the rest is read; `markdown` marks
// numeric columns by every row, so for it the batches are read twice.
//
// Only the SQL engine streams: the memory engine evaluates in memory over
// every object anyway, and PROPERTIES / GROUP BY results are dictionaries.

extension ShellSession {
    /// Whether `f` prints batch by batch.
    func streams(_ f: FetchStatement) -> Bool {
        (f.batchSize ?? 0) > 0 && f.properties.isEmpty && f.groupBy.isEmpty && engine == .sql
    }

    func streamFetch(_ f: FetchStatement) throws(ShellError) {
        let e = try entity(f.entity)
        let model = try currentModel()
        var request = FetchRequest(entity: f.entity.text, predicate: try substitute(f.predicate, entity: f.entity.text),
                                   sortDescriptors: sortDescriptors(f.sort), fetchLimit: f.limit, fetchOffset: f.offset ?? 0)
        request.fetchBatchSize = f.batchSize ?? 0
        request.includesSubentities = !f.only
        let columns = try defaultColumns(e)
        let formatter = presentation.formatter(for: mode)
        try storeCall { store in
            // A to-one whose key is on the row needs no query to print; the
            // others (kept on the other side, or pointing at an entity with
            // sub-entities, whose rows say which) are loaded per batch.
            request.relationshipKeyPathsForPrefetching = e.allRelationships(in: model).filter { r in
                guard !r.isToMany else { return false }
                guard case .foreignKey? = store.mapping.storage(of: r.name, of: e.name) else { return true }
                return !(model.entity(named: r.destination)?.subentities(in: model).isEmpty ?? true)
            }.map(\.name)
            // One batch alive at a time: the stream never goes back.
            let result = park(try park(Context(store: store)).fetchBatched(request, maximumLoadedBatches: 1))
            if formatter.needsSummary && mode != .table {
                try printMeasuredFirst(result, columns, formatter)
            } else {
                try printBatchByBatch(result, columns, formatter)
            }
        }
    }

    /// Table mode (and the modes that need no summary): each batch is
    /// aligned on its own, as psql does with FETCH_COUNT, so the first rows
    /// appear before the rest is read. The head is the first batch's (and
    /// `.expanded auto` decides on it); the row count comes at the end.
    private func printBatchByBatch(_ result: BatchedFetchResult, _ columns: [String], _ formatter: any RowStreamFormatter) throws {
        var current = formatter
        var printed = 0
        var headed = false
        var summary = ColumnSummary(columns: columns)
        // Between batches, a Ctrl-C ends the stream (no SQL runs there to interrupt).
        // A batch of a thousand rows takes a while to read, measure and
        // format in a debug build: each step goes a chunk at a time, and
        // stops at a Ctrl-C.
        let chunk = ChunkedPrinter.chunkRows
        try result.forEachBatch { objects throws in
            var rows: [[Value]] = []
            rows.reserveCapacity(objects.count)
            for start in stride(from: 0, to: objects.count, by: chunk) {
                try cancellation.check()
                rows += Self.rows(of: Array(objects[start..<min(start + chunk, objects.count)]), columns)
            }
            summary = ColumnSummary(columns: columns)
            if formatter.needsSummary {
                for start in stride(from: 0, to: rows.count, by: 4 * chunk) {
                    try cancellation.check()
                    let piece = Array(rows[start..<min(start + 4 * chunk, rows.count)])
                    summary.add((formatter as? PresentedFormatter)?.present(piece) ?? piece)
                }
            }
            if !headed {
                if let wide = expandedFormatter(for: summary) { current = wide }
                emit(current.head(columns, summary))
                headed = true
            }
            for start in stride(from: 0, to: rows.count, by: chunk) {
                try cancellation.check()
                emit(current.rows(Array(rows[start..<min(start + chunk, rows.count)]), from: printed + start, columns, summary))
            }
            printed += rows.count
        }
        if !headed { emit(current.head(columns, summary)) }
        emit(current.tail(columns, count: printed, summary))
    }

    /// `markdown` marks numeric columns in its head: the batches are read
    /// twice, first to measure, then to print.
    private func printMeasuredFirst(_ result: BatchedFetchResult, _ columns: [String], _ formatter: any RowStreamFormatter) throws {
        var summary = ColumnSummary(columns: columns)
        try result.forEachBatch { objects throws in
            try cancellation.check()
            let rows = Self.rows(of: objects, columns)
            summary.add((formatter as? PresentedFormatter)?.present(rows) ?? rows)
        }
        emit(formatter.head(columns, summary))
        var printed = 0
        try result.forEachBatch { objects throws in
            try cancellation.check()
            let rows = Self.rows(of: objects, columns)
            emit(formatter.rows(rows, from: printed, columns, summary))
            printed += rows.count
        }
        emit(formatter.tail(columns, count: printed, summary))
    }

    static func rows(of objects: [ManagedObject], _ columns: [String]) -> [[Value]] {
        objects.map { o in columns.map { o.value(forKey: $0) ?? .null } }
    }

    private func emit(_ text: String) {
        if !text.isEmpty { output(text) }
    }
}
