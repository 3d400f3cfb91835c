// Reading externally stored binary values back: the row decoders every
// object read goes through (StoreValues+Transformable.swift) also list the
// binary columns of attributes that allow external storage, and replace a
// column holding a file's name (TEXT, ExternalBinaryStorage.swift) by the
// file's bytes. A BLOB is the value itself (inline, as every plain binary
// column holds it, so stores made before the flag read unchanged). A store
// without a folder (PostgreSQL, `:memory:`) lists no such column: nothing
// is checked per row. A missing file is an error naming the row, never nil.
import QuarryModel
import QuarrySQL
import QuarrySQLite

extension RowDecoders {
    struct ExternalColumn {
        var index: Int
        var entity: String
        var key: String
        var storage: ExternalBinaryStorage
    }

    /// Appends the bytes of the files `row`'s external columns name.
    func readExternal(_ row: any SQLRowReading, into values: inout [(Int, Value)]) throws {
        guard !external.isEmpty, let sqliteRow = row as? SQLiteRow else { return }
        for c in external where sqliteRow.isText(at: c.index) {
            guard let name = sqliteRow.string(at: c.index) else { continue }
            let bytes = try c.storage.read(name, entity: c.entity, key: c.key, primaryKey: row.integer(at: 0))
            values.append((c.index, .data(bytes)))
        }
    }
}

extension SQLStore {
    /// The decoders of an export's rows of `table` (its `columns`, in
    /// order): a file's bytes go to the target inline, as every value of a
    /// store without a folder is (a target with one reads them as they are).
    func exportDecoders(table: String, columns: [String]) -> RowDecoders {
        var decoders = RowDecoders()
        guard let storage = externalStorage else { return decoders }
        for (i, c) in columns.enumerated() where storage.columns.contains(where: { $0.table == table && $0.column == SQLIdentifier.quoted(c) }) {
            decoders.external.append(.init(index: i, entity: table, key: c, storage: storage))
        }
        return decoders
    }

    /// Lists planned column `c` (of `entity`'s rows, at row index `index`)
    /// when its attribute's values may be in files.
    func addExternal(_ c: PlannedColumn, of entity: String, index: Int, to decoders: inout RowDecoders) throws {
        guard let storage = externalStorage, let e = model.entity(named: entity) else { return }
        for owner in [e] + e.allSubentities(in: model) where c.onlyFor == nil || c.onlyFor!.contains(owner.name) {
            if let a = owner.attribute(named: c.name, in: model), a.storesBytesOutsideSQL {
                decoders.external.append(.init(index: index, entity: owner.name, key: a.name, storage: storage))
                return
            }
        }
    }
}
