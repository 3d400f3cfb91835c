// An NSKeyedArchiver archive read as data: a binary property list whose
// `$objects` array holds every object once, with references between them as
// UIDs, and `$top` naming the root. This resolves references and reads the
// Foundation collections the archive uses (NS.objects / NS.keys, and Core
// Data's own known-keys dictionary, whose values sit in `values`); what the
// objects mean is the caller's business (CachedModelReader.swift).
import QuarryModel

struct KeyedArchive {
    let objects: [PropertyListValue]
    let root: PropertyListValue

    init(_ plist: PropertyListValue) throws(CoreDataError) {
        guard let objects = plist["$objects"]?.array, case .uid(let top)? = plist["$top"]?["root"], top < objects.count else {
            throw CoreDataError(.unreadableModel, "the cached model is not a keyed archive (no $objects or $top)")
        }
        self.objects = objects
        self.root = objects[top]
    }

    /// The object a value refers to (itself when it is not a reference);
    /// nil for `$null` and for references out of range.
    func resolve(_ value: PropertyListValue?) -> PropertyListValue? {
        guard let value else { return nil }
        if case .uid(let i) = value {
            guard i < objects.count, i > 0 || objects[0] != .string("$null") else { return nil }
            let object = objects[i]
            return object == .string("$null") ? nil : object
        }
        return value
    }

    /// `object[key]`, resolved.
    func field(_ object: PropertyListValue?, _ key: String) -> PropertyListValue? { resolve(object?[key]) }

    /// `object[key]` as a string, archived plain or as an NSString object
    /// (`NS.string`: version hash modifiers are NSMutableStrings).
    func string(_ object: PropertyListValue?, _ key: String) -> String? {
        let value = field(object, key)
        return value?.string ?? value?["NS.string"]?.string
    }

    /// The class name of an archived object.
    func className(_ object: PropertyListValue?) -> String? { field(object, "$class")?["$classname"]?.string }

    /// The members of an archived array or set, or the values of an archived
    /// dictionary (plain or known-keys), resolved.
    func elements(_ collection: PropertyListValue?) -> [PropertyListValue] {
        guard let collection else { return [] }
        if let items = collection["NS.objects"]?.array { return items.compactMap { resolve($0) } }
        if let values = field(collection, "values") { return elements(values) }
        return []
    }
}
