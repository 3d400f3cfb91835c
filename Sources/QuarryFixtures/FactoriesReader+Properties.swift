// The attribute and relationship shapes of a factories file:
//
//     attributes:
//       name: person name                          # a kind alone
//       task: { sequence: "Task {n}" }
//       level: { oneOf: [junior, senior], weights: [3, 1] }
//       salary: { range: [30000, 180000], step: 500, distribution: normal }
//       startDate: { date range: [2015-01-01, 2024-06-30] }
//       code: { pattern: '[A-Z]{3}-[0-9]{4}' }
//       bonus: { expression: "$n * 10", null ratio: 0.2 }
//     relationships:
//       employees: { per: [5, 50], distribution: zipf, skew: 1.2 }
//
// Only the shape is checked here; whether `range` fits the attribute's type
// and bounds is the plan's job, which knows the model.
import Yams

extension FactoryNodes {
    func attribute(_ name: String, of entity: String, _ node: Node) throws(FixtureError) -> AttributeFactory {
        let what = "the factory of \(entity).\(name)"
        if case .scalar = node {
            if isNull(node) { return AttributeFactory() }
            var factory = AttributeFactory(.kind(try scalar(node, what)))
            factory.generatorLocation = location(node)
            return factory
        }
        let fields = try pairs(node, what, normalizing: true)
        try checkKeys(fields, allowed: Self.attributeKeys,
                      shown: ["sequence", "oneOf", "range", "date range", "pattern", "expression", "value", "kind",
                              "ratio", "step", "weights", "distribution", "null ratio"], in: what)
        let generators = fields.filter { Self.generatorKeys.contains($0.key) }
        if generators.count > 1 {
            throw error(.structure, "\(what) has more than one generator ('\(generators[0].key)' and '\(generators[1].key)'); keep one",
                        at: generators[1].keyNode)
        }
        var factory = AttributeFactory()
        var step: FactoryValue?
        var weights: [Int]?
        var shape = DistributionShape.uniform
        for (key, _, value) in fields {
            switch key {
            case "nullratio": factory.nullRatio = try ratio(value, "null ratio")
            case "step": step = try self.value(value, "step")
            case "distribution": shape = try self.shape(value)
            case "weights":
                weights = []
                for item in try list(value, "weights") { weights!.append(try int(item, "a weight")) }
            default: break
            }
        }
        guard let (key, keyNode, value) = generators.first else {
            if step != nil || weights != nil {
                throw error(.structure, "\(what) has 'step' or 'weights' but no generator to apply them to", at: node)
            }
            return factory
        }
        factory.generatorLocation = location(value)
        switch key {
        case "sequence":
            var stepValue: Int64 = 1
            if let step {
                guard let n = Int64(step.text) else {
                    throw FixtureError(.invalidGenerator, "the step of a sequence should be a whole number, found '\(step.text)'", at: step.location)
                }
                stepValue = n
            }
            factory.generator = .sequence(try self.value(value, "the sequence of \(what)"), step: stepValue)
        case "oneof":
            let items = try list(value, "oneOf")
            guard !items.isEmpty else { throw error(.invalidGenerator, "oneOf needs at least one value", at: value) }
            var values: [FactoryValue] = []
            for item in items { values.append(try self.value(item, "a oneOf value")) }
            if let weights, weights.count != values.count {
                throw error(.invalidGenerator, "oneOf has \(values.count) values but \(weights.count) weights", at: keyNode)
            }
            if let weights, weights.allSatisfy({ $0 == 0 }) {
                throw error(.invalidGenerator, "the weights of oneOf are all 0", at: keyNode)
            }
            factory.generator = .oneOf(values, weights: weights)
        case "range", "daterange":
            let items = try list(value, key == "range" ? "range" : "date range")
            guard items.count == 2 else {
                throw error(.invalidGenerator, "a range is a list of two bounds, as in [18, 67]", at: value)
            }
            factory.generator = .range(try self.value(items[0], "a bound"), try self.value(items[1], "a bound"), shape: shape, step: step)
        case "pattern":
            factory.generator = .pattern(try scalar(value, "the pattern of \(what)"))
        case "expression":
            factory.generator = .expression(try scalar(value, "the expression of \(what)"))
        case "value":
            factory.generator = .value(try self.value(value, "the value of \(what)"))
        case "kind":
            factory.generator = .kind(try scalar(value, "the kind of \(what)"))
        default: // ratio
            factory.generator = .ratio(try ratio(value, "ratio (the share of true)"))
        }
        return factory
    }

    func relationship(_ name: String, of entity: String, _ node: Node) throws(FixtureError) -> RelationshipFactory {
        let what = "the factory of \(entity).\(name)"
        let fields = try pairs(node, what, normalizing: true)
        try checkKeys(fields, allowed: Self.relationshipKeys, shown: ["distribution", "per", "skew", "null ratio"], in: what)
        var factory = RelationshipFactory()
        for (key, _, value) in fields {
            switch key {
            case "distribution": factory.distribution = try shape(value)
            case "nullratio": factory.nullRatio = try ratio(value, "null ratio")
            case "skew":
                let s = try scalar(value, "skew")
                guard let d = Double(s), d > 0, d <= 10 else {
                    throw error(.invalidGenerator, "skew should be a number above 0 (1 is classic Zipf), found '\(s)'", at: value)
                }
                factory.skew = d
            default: // per
                if case .sequence = value {
                    let items = try list(value, "per")
                    guard items.count == 2 else { throw error(.invalidGenerator, "per is a count or [least, most]", at: value) }
                    let lo = try int(items[0], "the least count"), hi = try int(items[1], "the most count")
                    guard lo <= hi else { throw error(.invalidGenerator, "per: the least count \(lo) is above the most \(hi)", at: value) }
                    factory.per = lo...hi
                } else {
                    let n = try int(value, "per")
                    factory.per = n...n
                }
            }
        }
        return factory
    }
}
