// FileDetail: a fact a model file states that Quarry keeps only for Core
// Data's entity version hashes (QuarryCoreData's CoreDataVersionHash) — a
// versionHashModifier, a relationship's counts as Xcode wrote them. It is
// not part of what the model means to Quarry, so it is never part of
// equality: a model reads the same from YAML and from Xcode's XML, and a
// model archived in a store (ModelArchive, which does not write these)
// reads back equal.

public struct FileDetail<Value: Sendable>: Sendable, Equatable {
    public var value: Value

    public init(_ value: Value) { self.value = value }

    public static func == (_: FileDetail, _: FileDetail) -> Bool { true }
}
