// Attributes and relationships of Core Data's model XML. See XMLModelReader
// for the conventions (YES flags, date intervals, lengths as bounds).
import QuarrySyntax

extension XMLModelReader {
    mutating func readAttribute(_ element: ModelXMLElement, into entity: inout Entity) throws(ModelError) {
        let name = try required("name", of: element, "in entity \(entity.name)")
        let what = "attribute '\(name)' of \(entity.name)"
        let path = [entity.name, name]
        map[path] = tree.location(of: "name", in: element)
        // Xcode writes "Undefined" for untyped transient attributes, but older
        // files simply leave attributeType out.
        let typeText = element["attributeType"] ?? "Undefined"
        guard let type = AttributeType(rawValue: typeText) else {
            let location = tree.location(of: "attributeType", in: element)
            if typeText == "Composite" {
                throw error(.unsupported, "\(what): composite attributes are not supported yet", at: location)
            }
            let names = AttributeType.allCases.map(\.rawValue)
            throw error(.structure, "\(what): unknown attributeType '\(typeText)'", at: location,
                        suggestion: Suggestions.closest(to: typeText, among: names))
        }
        var attribute = Attribute(name: name, type: type, isOptional: Self.flag(element["optional"]),
                                  isTransient: Self.flag(element["transient"]),
                                  valueTransformerName: element["valueTransformerName"],
                                  allowsExternalBinaryDataStorage: Self.flag(element["allowsExternalBinaryDataStorage"]))
        let isDate = type == .date
        if let text = element[isDate ? "defaultDateTimeInterval" : "defaultValueString"] {
            let location = tree.location(of: isDate ? "defaultDateTimeInterval" : "defaultValueString", in: element)
            map[path + ["default"]] = location
            attribute.defaultValue = accept(AttributeValues.coreDataDefault(text, for: type),
                                            "\(what): default value '\(text)'", at: location)
        }
        for (key, xmlName) in [("min", isDate ? "minDateTimeInterval" : "minValueString"),
                               ("max", isDate ? "maxDateTimeInterval" : "maxValueString")] {
            guard let text = element[xmlName] else { continue }
            let location = tree.location(of: xmlName, in: element)
            map[path + [key]] = location
            let label = key == "min" ? "minimum" : "maximum"
            let value = accept(AttributeValues.coreDataBound(text, for: type), "\(what): \(label) '\(text)'", at: location)
            if key == "min" { attribute.minimum = value } else { attribute.maximum = value }
        }
        if let pattern = element["regularExpressionString"] {
            let location = tree.location(of: "regularExpressionString", in: element)
            map[path + ["regex"]] = location
            // Xcode keeps the pattern when a String attribute becomes another
            // type, and momc compiles it; only strings are ever matched.
            if type == .string {
                attribute.regularExpression = pattern
            } else {
                warn(.invalidValue, "\(what): regular expression '\(pattern)' is ignored: only String attributes are matched against one",
                     at: location)
            }
        }
        if Self.flag(element["derived"]), let text = element["derivationExpression"] {
            do {
                _ = try Parser.parseExpression(text)
            } catch {
                throw StoredText.error(error, in: text, at: tree.location(of: "derivationExpression", in: element),
                                       file: map.file, what: "derivation of \(what)", isExpression: true)
            }
            attribute.derivation = text
        }
        if let info = element.children(named: "userInfo").first { attribute.userInfo = userInfo(info) }
        attribute.preservesValueInHistoryOnDeletion = Self.flag(element["preserveAfterDeletion"])
        attribute.versionHashModifier = element["versionHashModifier"]
        if Self.flag(element["indexed"]) {
            let indexName = FetchIndex.defaultName(for: [name])
            map[[entity.name, "#index", indexName]] = tree.location(of: "indexed", in: element)
            var index = FetchIndex(name: indexName, elements: [FetchIndexElement(property: name)])
            index.isDeclaredByProperties = true
            entity.fetchIndexes.append(index)
        }
        entity.attributes.append(attribute)
    }

    /// The value of a leniently read default or bound, recording a warning
    /// when it was converted or ignored (see AttributeValues+CoreData).
    mutating func accept(_ reading: LenientValue, _ what: String, at location: ModelLocation) -> Value? {
        switch reading {
        case .exact(let value):
            return value
        case .converted(let value, let note):
            warn(.invalidValue, "\(what) \(note), as Core Data reads it", at: location)
            return value
        case .ignored(let note):
            warn(.invalidValue, "\(what) is ignored: \(note)", at: location)
            return nil
        }
    }

    mutating func readRelationship(_ element: ModelXMLElement, of entity: String) throws(ModelError) -> Relationship {
        let name = try required("name", of: element, "in entity \(entity)")
        let what = "relationship '\(name)' of \(entity)"
        let path = [entity, name]
        map[path] = tree.location(of: "name", in: element)
        let destination = try required("destinationEntity", of: element, what)
        map[path + ["destination"]] = tree.location(of: "destinationEntity", in: element)
        let ruleText = element["deletionRule"] ?? "Nullify"
        guard let rule = DeleteRule(rawValue: ruleText) else {
            let names = DeleteRule.allCases.map(\.rawValue)
            throw error(.structure, "\(what): unknown deletionRule '\(ruleText)' (\(names.joined(separator: ", ")))",
                        at: tree.location(of: "deletionRule", in: element), suggestion: Suggestions.closest(to: ruleText, among: names))
        }
        var counts: [String: Int] = [:]
        for key in ["minCount", "maxCount"] {
            guard let text = element[key] else { continue }
            map[path + [key == "minCount" ? "min" : "max"]] = tree.location(of: key, in: element)
            guard let n = Int(text), n >= 0 else {
                throw error(.invalidValue, "\(what): \(key) '\(text)' is not a whole number ≥ 0", at: tree.location(of: key, in: element))
            }
            counts[key] = n
        }
        let inverse = element["inverseName"]
        if let inverse {
            map[path + ["inverse"]] = tree.location(of: "inverseName", in: element)
            // Xcode always writes inverseEntity equal to the destination;
            // anything else is a hand edit that Core Data would reject.
            if let inverseEntity = element["inverseEntity"], inverseEntity != destination {
                throw error(.inverseMismatch,
                            "\(what): inverseEntity '\(inverseEntity)' differs from destinationEntity '\(destination)'",
                            at: tree.location(of: "inverseEntity", in: element))
            }
            _ = inverse
        }
        var relationship = Relationship(name: name, destination: destination, isToMany: Self.flag(element["toMany"]),
                                        isOrdered: Self.flag(element["ordered"]), isOptional: Self.flag(element["optional"]),
                                        minCount: counts["minCount"] ?? 0, maxCount: counts["maxCount"], inverse: inverse,
                                        deleteRule: rule, isTransient: Self.flag(element["transient"]),
                                        userInfo: element.children(named: "userInfo").first.map(userInfo) ?? [:])
        // Kept as written (absent = 0) for Core Data's version hash.
        relationship.declaredMinCount = counts["minCount"] ?? 0
        relationship.declaredMaxCount = counts["maxCount"] ?? 0
        relationship.versionHashModifier = element["versionHashModifier"]
        return relationship
    }
}
