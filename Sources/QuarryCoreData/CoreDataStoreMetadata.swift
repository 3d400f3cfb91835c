// The metadata plist Core Data keeps in `Z_METADATA.Z_PLIST` (a binary
// property list), as a new store of a model carries it. The keys are those
// every corpus store has, by framework version:
// - always: NSPersistenceFrameworkVersion, NSStoreType = "SQLite",
//   NSStoreModelVersionHashes (entity → 32 bytes, CoreDataVersionHash),
//   NSStoreModelVersionHashesVersion = 3, NSStoreModelVersionIdentifiers
//   (the model version's identifiers; `[]` when it has none),
//   _NSAutoVacuumLevel = "2" (a string; the file's auto_vacuum is 2 too);
// - from 977: NSStoreModelVersionHashesDigest (CoreDataVersionHash.digest);
// - at 1344 (the only later version in the corpus; absent at 1145):
//   NSStoreModelVersionChecksumKey = base64(SHA-256 of the entity hashes
//   concatenated in name order) — found by trying the obvious candidates
//   against the three corpus stores that carry it; all three match.
// NSStoreUUID is not in the plist: Core Data keeps it in `Z_UUID` and adds
// it to the metadata dictionary it hands out. Keys an app adds itself
// (tokens, anchors) are the app's business and are not written.
import Foundation
import QuarryModel

enum CoreDataStoreMetadata {
    static func plist(hashes: [String: [UInt8]], frameworkVersion: Int, versionIdentifiers: [String]) -> PropertyListValue {
        var d: [String: PropertyListValue] = [
            "NSPersistenceFrameworkVersion": .int(Int64(frameworkVersion)),
            "NSStoreType": .string("SQLite"),
            "NSStoreModelVersionHashes": .dictionary(hashes.mapValues { .data($0) }),
            "NSStoreModelVersionHashesVersion": .int(3),
            "NSStoreModelVersionIdentifiers": .array(versionIdentifiers.map { .string($0) }),
            "_NSAutoVacuumLevel": .string("2"),
        ]
        if frameworkVersion >= 977 { d["NSStoreModelVersionHashesDigest"] = .string(CoreDataVersionHash.digest(hashes)) }
        if frameworkVersion >= 1344 { d["NSStoreModelVersionChecksumKey"] = .string(checksum(hashes)) }
        return .dictionary(d)
    }

    /// `NSStoreModelVersionChecksumKey`: base64(SHA-256(the hashes in name order)).
    static func checksum(_ hashes: [String: [UInt8]]) -> String {
        let bytes = hashes.keys.sorted(by: utf8Order).flatMap { hashes[$0]! }
        return Data(SHA2.sha256(bytes)).base64EncodedString()
    }
}
