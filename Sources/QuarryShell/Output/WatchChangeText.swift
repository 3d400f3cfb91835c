// How `.watch` prints the change set a statement caused. In the text modes
// (table, line, markdown, csv) one line per change, each starting `watch:`,
// in the order the controller reports them — section deletes, section
// inserts, then object deletes, inserts, moves and updates — so that applying
// them in that order turns the old sections into the new ones:
//
//   watch: section 'Sales' [S] deleted at 7
//   watch: Employee/81 moved from 'Sales' [7, 3] to 'Support' [8, 0]
//   watch: Employee/201 inserted into 'Quarry Labs' [3, 0]
//   watch: no changes
//
// In json and ndjson modes, one JSON object per change set on one line,
// `{"watch": statement, "sections": [...], "objects": [...]}`, with the
// index paths as [section, item] arrays and the sections named as SECTIONS
// names them. A statement that changed nothing the watch shows prints
// "watch: no changes" (text) or the object with empty lists (JSON), so every
// write under a watch answers with exactly one report.
import Foundation

enum WatchChangeText {
    /// The text lines of the reports of one statement.
    static func text(_ reports: [WatchReport]) -> String {
        let lines = reports.flatMap(lines)
        return lines.isEmpty ? "watch: no changes\n" : lines.map { "watch: " + $0 + "\n" }.joined()
    }

    /// One JSON line per report; one with empty lists when there is none.
    static func json(_ reports: [WatchReport], statement: String) -> String {
        let all = reports.isEmpty ? [WatchReport(change: FetchedResultsChange(), before: [], after: [])] : reports
        return all.map { json($0, statement: statement).serialized + "\n" }.joined()
    }

    // MARK: - Text

    static func lines(_ r: WatchReport) -> [String] {
        var out: [String] = []
        for s in r.change.sections {
            let heading = (s.type == .delete ? r.before : r.after).element(s.index) ?? SectionHeading(name: s.name, indexTitle: "")
            out.append("section \(quoted(heading.name)) [\(heading.indexTitle)] \(s.type == .delete ? "deleted" : "inserted") at \(s.index)")
        }
        for o in r.change.objects {
            let id = o.objectID.description
            switch o.type {
            case .delete: out.append("\(id) deleted from \(place(o.from, r.before))")
            case .insert: out.append("\(id) inserted into \(place(o.to, r.after))")
            case .move: out.append("\(id) moved from \(place(o.from, r.before)) to \(place(o.to, r.after))")
            case .update:
                // An update keeps its section; its index path changes only when rows around it moved.
                var line = "\(id) updated in \(place(o.from ?? o.to, r.before))"
                if let from = o.from, let to = o.to, from != to { line += ", now \(path(to))" }
                out.append(line)
            }
        }
        return out
    }

    /// `'Sales' [7, 3]`: the section's name and the index path.
    static func place(_ p: IndexPath?, _ headings: [SectionHeading]) -> String {
        guard let p else { return "?" }
        return (headings.element(p.section).map { quoted($0.name) + " " } ?? "") + path(p)
    }

    static func path(_ p: IndexPath) -> String { "[\(p.section), \(p.item)]" }

    static func quoted(_ name: String) -> String { "'" + name + "'" }

    // MARK: - JSON

    static func json(_ r: WatchReport, statement: String) -> JSON {
        let sections: [JSON] = r.change.sections.map { s in
            let heading = (s.type == .delete ? r.before : r.after).element(s.index) ?? SectionHeading(name: s.name, indexTitle: "")
            return .object([("type", .string(s.type.rawValue)), ("index", .int(Int64(s.index))),
                            ("section", .string(heading.name)), ("indexTitle", .string(heading.indexTitle))])
        }
        let objects: [JSON] = r.change.objects.map { o in
            var members: [(String, JSON)] = [("type", .string(o.type.rawValue)), ("object", .string(o.objectID.description))]
            if let from = o.from {
                members.append(("from", .array([.int(Int64(from.section)), .int(Int64(from.item))])))
                members.append(("fromSection", r.before.element(from.section).map { .string($0.name) } ?? .null))
            }
            if let to = o.to {
                members.append(("to", .array([.int(Int64(to.section)), .int(Int64(to.item))])))
                members.append(("toSection", r.after.element(to.section).map { .string($0.name) } ?? .null))
            }
            return .object(members)
        }
        return .object([("watch", .string(statement)), ("sections", .array(sections)), ("objects", .array(objects))])
    }
}

private extension Array {
    /// The element at `i`, or nil outside the array.
    func element(_ i: Int) -> Element? { indices.contains(i) ? self[i] : nil }
}
