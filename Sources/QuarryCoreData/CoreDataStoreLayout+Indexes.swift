// The indexes (and uniqueness constraints) a model asks for, as each Core
// Data framework version seen in ../shared/corpus writes them:
// - fetch indexes:
//   - before 847 (objc.io Moody, 637): `<TABLE>_<COL>_INDEX` for one
//     attribute, `<TABLE>_<COL1>_<COL2>…` for a compound index, no collation;
//   - from 847 (wire-ios, LoopKit, CoreDataPlus): `Z_<Entity>_<name>` with
//     `COLLATE BINARY ASC|DESC` on each element, where <name> is the index's
//     name, or — for an index declared the old way (`indexed="YES"`,
//     `<compoundIndexes>`) — its properties joined by `_`;
//   - a sub-entity does not repeat its parent's indexes. (Some wire-ios
//     stores at 865–866 carry `Z_TextMessage_nonce_data` beside
//     `Z_Message_nonce_data`, but other stores at the same versions do not:
//     left by their migrations, not by creation);
// - uniqueness constraints: before 1044 a table constraint
//   `CONSTRAINT <COL1>_<COL2> UNIQUE (COL1, COL2)` (Moody, 637); from 1044
//   `CREATE UNIQUE INDEX Z_<Entity>_UNIQUE_<p1>_<p2>` with `COLLATE BINARY
//   ASC` (CoreDataPlus, LoopKit). No corpus store lies between 637 and 1044
//   with a constraint: that boundary is a guess.
// R-tree and expression elements are not in the corpus and are refused.
import QuarryModel

extension CoreDataStoreLayout {
    mutating func addModelIndexes(model: Model, frameworkVersion: Int, problems: inout [String]) {
        let modern = frameworkVersion >= 847
        for entity in model.entities {
            let hierarchy = [entity] + entity.ancestors(in: model)
            let table = "Z" + (hierarchy.last ?? entity).name.uppercased()
            func column(_ property: String) -> String? {
                for owner in hierarchy { if let c = columnOf[owner.name + "." + property] { return c } }
                return nil
            }
            do {
                for index in entity.fetchIndexes {
                    var elements: [(column: String, ascending: Bool)] = []
                    for e in index.elements {
                        guard let property = e.property, e.kind == .binary else {
                            problems.append("fetch index \(index.name) of \(entity.name) has an \(e.property == nil ? "expression" : "R-tree") element, which Quarry cannot create")
                            continue
                        }
                        guard let c = column(property) else {
                            problems.append("fetch index \(index.name) of \(entity.name): \(property) has no column")
                            continue
                        }
                        elements.append((c, e.isAscending))
                    }
                    guard !elements.isEmpty else { continue }
                    if modern {
                        let name = index.isDeclaredByProperties ? index.elements.compactMap(\.property).joined(separator: "_") : index.name
                        indexes.append(Index(name: "Z_\(entity.name)_\(name)", table: table,
                                             elements: elements.map { "\($0.column) COLLATE BINARY \($0.ascending ? "ASC" : "DESC")" }, isUnique: false))
                    } else {
                        let name = elements.count == 1 ? "\(table)_\(elements[0].column)_INDEX"
                            : "\(table)_" + elements.map(\.column).joined(separator: "_")
                        indexes.append(Index(name: name, table: table, elements: elements.map(\.column), isUnique: false))
                    }
                }
            }
            for constraint in entity.uniquenessConstraints {
                let columns = constraint.properties.compactMap(column)
                guard columns.count == constraint.properties.count else {
                    problems.append("a uniqueness constraint of \(entity.name) names a property without a column")
                    continue
                }
                if frameworkVersion >= 1044 {
                    indexes.append(Index(name: "Z_\(entity.name)_UNIQUE_" + constraint.properties.joined(separator: "_"), table: table,
                                         elements: columns.map { "\($0) COLLATE BINARY ASC" }, isUnique: true))
                } else if let t = tables.firstIndex(where: { $0.name == table }) {
                    tables[t].constraints.append("CONSTRAINT \(columns.joined(separator: "_")) UNIQUE (\(columns.joined(separator: ", ")))")
                }
            }
        }
    }
}
