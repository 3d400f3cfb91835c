// The incremental step: given the objects an event touched, move them to
// their new places in the controller's state and describe what moved.
//
//   1. each touched object is judged (in the results or not, new sort key,
//      new section name); untouched-looking candidates are dropped;
//   2. those that were in the results are found (binary search on the key
//      they were placed with) and removed; their sections keep a count of 0
//      for now, so that a section emptied and refilled stays the same one;
//   3. those that belong are inserted by binary search on their new key,
//      joining a neighbouring section of the same name or a new one;
//   4. empty sections go, and the old and new positions become the change.
//
// Many touched objects (a refetch, a large save) take a bulk path instead of
// one array shift each: filter once, merge once, recount sections once.
import Foundation

struct TrackedEntry {
    let object: ManagedObject
    let explicit: Bool
    var oldKey: SortKey?
    var oldIndex: Int?
    var oldPath: IndexPath?
    var oldRecord: Int?
    var newKey: SortKey?
    var newName = ""
    var newIndex: Int?
    var newPath: IndexPath?
    var newRecord: Int?
}

extension FetchedResultsController {
    /// Where an object sits now, by its placed key; a linear search if the
    /// key misleads (it never should).
    func position(of object: ManagedObject, key: SortKey) -> Int? {
        let i = lowerBound(key)
        if i < objects.count && objects[i] === object { return i }
        return objects.firstIndex { $0 === object }
    }

    func lowerBound(_ key: SortKey) -> Int {
        guard let sortKeys else { return 0 }
        var lo = 0, hi = objects.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if let k = members[ObjectIdentifier(objects[mid])], sortKeys.compare(k, key) < 0 { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    func sectionName(of object: ManagedObject) throws -> String {
        guard let sectionReader else { return "" }
        return SectionNames.text(try sectionReader.read(object))
    }

    func apply(explicit: [ManagedObject], others: [ManagedObject],
               belongs: (ManagedObject) throws -> Bool) throws -> FetchedResultsChange {
        guard let sortKeys else { return FetchedResultsChange() }
        // 1. Judge.
        var entries: [TrackedEntry] = []
        var seen: Set<ObjectIdentifier> = []
        for (object, isExplicit) in explicit.lazy.map({ ($0, true) }) + others.lazy.map({ ($0, false) }) {
            let oid = ObjectIdentifier(object)
            guard seen.insert(oid).inserted else { continue }
            var e = TrackedEntry(object: object, explicit: isExplicit)
            e.oldKey = members[oid]
            if try belongs(object) {
                e.newKey = try sortKeys.key(of: object)
                e.newName = try sectionName(of: object)
            }
            guard e.oldKey != nil || e.newKey != nil else { continue }
            if let oldKey = e.oldKey {
                guard let index = position(of: object, key: oldKey) else { continue }
                e.oldIndex = index
                let s = section(containing: index)
                e.oldPath = IndexPath(item: index - starts[s], section: s)
                e.oldRecord = records[s].id
                if !isExplicit, e.newKey == oldKey, e.newName == records[s].name { continue }
            }
            entries.append(e)
        }
        guard !entries.isEmpty else { return FetchedResultsChange() }
        let oldRecords = records

        // 2. Remove.
        let removing = entries.filter { $0.oldIndex != nil }.sorted { $0.oldIndex! > $1.oldIndex! }
        for e in removing {
            records[e.oldPath!.section].count -= 1
            members[ObjectIdentifier(e.object)] = nil
            if byID[e.object.objectID] === e.object { byID[e.object.objectID] = nil }
            unsaved[ObjectIdentifier(e.object)] = nil
            if e.newKey == nil { removedObjects[e.object.objectID] = e.object }
        }
        if removing.count > 32 {
            let drop = Set(removing.map { $0.oldIndex! })
            objects = objects.indices.filter { !drop.contains($0) }.map { objects[$0] }
        } else {
            for e in removing { objects.remove(at: e.oldIndex!) }
        }
        recomputeStarts()

        // 3. Insert.
        let adding = entries.filter { $0.newKey != nil }.sorted { sortKeys.compare($0.newKey!, $1.newKey!) < 0 }
        for e in adding {
            members[ObjectIdentifier(e.object)] = e.newKey!
            byID[e.object.objectID] = e.object
            if e.object.objectID.isTemporary { unsaved[ObjectIdentifier(e.object)] = e.object }
        }
        if adding.count > 32 {
            try bulkInsert(adding, oldRecords: oldRecords)
        } else {
            for e in adding { try insert(e) }
        }

        // 4. Drop emptied sections; describe.
        if sectionReader != nil { records.removeAll { $0.count == 0 } }
        recomputeStarts()
        for i in entries.indices where entries[i].newKey != nil {
            guard let index = position(of: entries[i].object, key: entries[i].newKey!) else { continue }
            let s = section(containing: index)
            entries[i].newIndex = index
            entries[i].newPath = IndexPath(item: index - starts[s], section: s)
            entries[i].newRecord = records[s].id
        }
        builtSections = nil
        return describe(entries, oldRecords: oldRecords)
    }

    /// Inserts one object at its key's place, in a neighbouring section of
    /// its name or a new section between its neighbours.
    private func insert(_ e: TrackedEntry) throws {
        let i = lowerBound(e.newKey!)
        var s = 0
        if sectionReader != nil {
            let prev = i > 0 ? section(containing: i - 1) : -1
            let next = i < objects.count ? section(containing: i) : records.count
            if prev >= 0 && records[prev].name == e.newName {
                s = prev
            } else if next < records.count && records[next].name == e.newName {
                s = next
            } else if prev == next {
                throw FetchedResultsError.sectionsNotContiguous(section: e.newName, keyPath: sectionNameKeyPath ?? "",
                                                                firstSortKey: fetchRequest.sortDescriptors[0].keyPath)
            } else if let empty = (prev + 1..<next).first(where: { records[$0].name == e.newName }) {
                s = empty       // emptied by this change and refilled: the same section
            } else {
                s = prev + 1
                records.insert(makeRecord(e.newName, count: 0), at: s)
                starts.insert(i, at: s)
            }
        }
        objects.insert(e.object, at: i)
        records[s].count += 1
        for j in (s + 1)..<starts.count { starts[j] += 1 }
    }

    /// Many inserts: one merge of sorted runs, then sections recounted by
    /// name (a name that was a section before keeps that section).
    private func bulkInsert(_ adding: [TrackedEntry], oldRecords: [SectionRecord]) throws {
        guard let sortKeys else { return }
        var merged: [ManagedObject] = []
        merged.reserveCapacity(objects.count + adding.count)
        var a = 0, b = 0
        while a < objects.count || b < adding.count {
            if b == adding.count || (a < objects.count && sortKeys.compare(members[ObjectIdentifier(objects[a])]!, adding[b].newKey!) < 0) {
                merged.append(objects[a]); a += 1
            } else {
                merged.append(adding[b].object); b += 1
            }
        }
        objects = merged
        let byName = Dictionary(oldRecords.map { ($0.name, $0.id) }, uniquingKeysWith: { first, _ in first })
        records = try sectionize(objects, sectionReader).map { r in
            guard let id = byName[r.name] else { return r }
            return SectionRecord(id: id, name: r.name, count: r.count)
        }
    }

    /// The change set from old and new positions.
    private func describe(_ entries: [TrackedEntry], oldRecords: [SectionRecord]) -> FetchedResultsChange {
        var change = FetchedResultsChange()
        let newIDs = Set(records.map(\.id)), oldIDs = Set(oldRecords.map(\.id))
        for (i, r) in oldRecords.enumerated().reversed() where !newIDs.contains(r.id) {
            change.sections.append(.init(type: .delete, name: r.name, index: i))
        }
        for (i, r) in records.enumerated() where !oldIDs.contains(r.id) {
            change.sections.append(.init(type: .insert, name: r.name, index: i))
        }

        // An object in both is an update only if it keeps its section and its
        // place among the objects not removed and re-added: its rank among
        // them (its "gap") is the same before and after, and within one gap
        // the updated objects keep their order.
        let before = entries.indices.filter { entries[$0].oldIndex != nil }.sorted { entries[$0].oldIndex! < entries[$1].oldIndex! }
        let after = entries.indices.filter { entries[$0].newIndex != nil }.sorted { entries[$0].newIndex! < entries[$1].newIndex! }
        var gapBefore: [Int: Int] = [:], gapAfter: [Int: Int] = [:]
        for (n, i) in before.enumerated() { gapBefore[i] = entries[i].oldIndex! - n }
        for (n, i) in after.enumerated() { gapAfter[i] = entries[i].newIndex! - n }
        var inPlace: Set<Int> = []
        var byGap: [Int: [Int]] = [:]
        for i in entries.indices {
            let e = entries[i]
            guard let g = gapBefore[i], gapAfter[i] == g, e.oldRecord == e.newRecord else { continue }
            byGap[g, default: []].append(i)
        }
        for (_, group) in byGap {
            let oldOrder = group.sorted { entries[$0].oldIndex! < entries[$1].oldIndex! }
            let newOrder = group.sorted { entries[$0].newIndex! < entries[$1].newIndex! }
            if oldOrder == newOrder { inPlace.formUnion(group) }
        }

        var deletes: [FetchedResultsChange.ObjectChange] = [], inserts = deletes, moves = deletes, updates = deletes
        for i in entries.indices {
            let e = entries[i]
            let id = e.object.objectID
            switch (e.oldPath, e.newPath) {
            case (let from?, nil): deletes.append(.init(type: .delete, objectID: id, from: from, to: nil))
            case (nil, let to?): inserts.append(.init(type: .insert, objectID: id, from: nil, to: to))
            case (let from?, let to?):
                if !inPlace.contains(i) {
                    moves.append(.init(type: .move, objectID: id, from: from, to: to))
                } else if e.explicit {
                    updates.append(.init(type: .update, objectID: id, from: from, to: to))
                }
            default: break
            }
        }
        change.objects = deletes.sorted { $0.from! > $1.from! } + inserts.sorted { $0.to! < $1.to! }
            + moves.sorted { $0.to! < $1.to! } + updates.sorted { $0.from! < $1.from! }
        return change
    }
}
