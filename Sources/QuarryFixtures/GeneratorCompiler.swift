// GeneratorCompiler: one attribute's factory (or none) read against the
// model into an AttributeGenerator. Factory text becomes values of the
// attribute's type here, so `range: [18, 67]` is two integers for an
// Integer 16 attribute and an error, pointing at the bound, for a string
// one. Attributes without a factory get the heuristics' generator; one with
// a `regex` in the model and a heuristic that rarely matches it is
// generated from the regex itself.
import Foundation

struct GeneratorCompiler {
    let plan: FixturePlan
    let entity: Entity
    let attribute: Attribute
    let factory: AttributeFactory?
    let seed: UInt64

    var what: String { "\(entity.name).\(attribute.name)" }
    var location: FixtureLocation { factory?.generatorLocation ?? factory?.location ?? FixtureLocation(file: plan.model.file) }

    func error(_ message: String, at place: FixtureLocation? = nil) -> FixtureError {
        FixtureError(.invalidGenerator, "\(what): \(message)", at: place ?? location)
    }

    func generator(unique: Bool, count: Int, nameColumn: Int?) throws(FixtureError) -> AttributeGenerator {
        let matcher = attribute.regularExpression.flatMap(ValueMatcher.init)
        var source: ValueSource
        if let spec = factory?.generator {
            source = try compile(spec)
            // A factory's `email` is made from the row's name too.
            if case .text(.email, nil) = source { source = .text(.email, nameColumn: nameColumn) }
        } else {
            source = Heuristics.source(for: attribute, entity: entity.name, reference: plan.reference, nameColumn: nameColumn)
            if let matcher, let pattern = try? RegexPattern(matcher.source), !fits(source, matcher) {
                source = .pattern(pattern)
            }
            if case .constant(.null) = source, !attribute.isOptional {
                throw FixtureError(.invalidGenerator, "\(what) is a required \(attribute.type.rawValue) attribute, which Quarry cannot make up; give it a 'value' or an 'expression'",
                                   at: factory?.location ?? FixtureLocation(file: plan.model.file))
            }
        }
        if let ratio = factory?.nullRatio, ratio > 0, !attribute.isOptional {
            throw FixtureError(.invalidGenerator, "\(what) is required, so its null ratio must be 0", at: factory?.location)
        }
        let nullRatio = factory?.nullRatio ?? (plan.edgeCases ? 0.25 : 0.1)
        if unique, nullRatio == 0 || !attribute.isOptional, let capacity = capacity(of: source), capacity < Double(count) {
            throw FixtureError(.impossibleUniqueness,
                               "\(what) must be unique, but its generator can make only \(Int(capacity)) distinct values for \(count) objects",
                               at: location)
        }
        var adjusts = true
        if case .pattern = source { adjusts = false }
        return AttributeGenerator(attribute: attribute, label: what, source: source, random: FixtureRandom(seed: seed),
                                  nullRatio: attribute.isOptional ? nullRatio : 0,
                                  defaultRatio: factory?.generator == nil ? 0.05 : 0, matcher: matcher, unique: unique,
                                  edgeValues: [], location: factory?.generatorLocation ?? factory?.location, adjustsLength: adjusts)
    }

    /// Whether a heuristic source mostly meets the regex (a sample of 200).
    func fits(_ source: ValueSource, _ matcher: ValueMatcher) -> Bool {
        var r = FixtureRandom(seed: seed, name: "#probe")
        var hits = 0
        for i in 0..<200 {
            if case .string(let s)? = try? source.next(&r, row: i, count: 200, values: [], names: []), matcher.matches(s) { hits += 1 }
        }
        return hits >= 180
    }

    /// Distinct values a source can make; nil when practically unbounded
    /// (free text is made unique with a number when it runs out).
    func capacity(of source: ValueSource) -> Double? {
        switch source {
        case .constant: return 1
        case .choice(let values, _): return Double(Set(values.map(ValueHash.of)).count)
        case .integers(let lo, let hi, let step, _, _): return Double(UInt64(bitPattern: hi &- lo) / UInt64(step)) + 1
        case .scaled(let lo, let hi, let step, _, _, _, _): return Double((hi - lo) / step) + 1
        case .bool: return 2
        case .pattern(let p): return attribute.regularExpression == nil ? p.capacity : nil
        case .template(let parts, _, let step):
            return parts.contains(where: { if case .number = $0 { return true } else { return false } }) && step != 0 ? nil : 1
        case .integerSequence(_, let step): return step == 0 ? 1 : nil
        default: return nil
        }
    }

    // MARK: - Factory generators

    func read(_ v: FactoryValue) throws(FixtureError) -> Value {
        try FixtureValues.read(v, for: attribute, in: what)
    }

    func compile(_ spec: GeneratorSpec) throws(FixtureError) -> ValueSource {
        let type = attribute.type
        switch spec {
        case .value(let v):
            return .constant(try read(v))
        case .oneOf(let values, let weights):
            var read: [Value] = []
            for v in values { read.append(try self.read(v)) }
            return .choice(read, weights.map { WeightedSampler(weights: $0.map(UInt64.init)) })
        case .ratio(let p):
            guard type == .boolean else { throw error("'ratio' is for Boolean attributes; this one is \(type.rawValue)") }
            return .bool(ratio: p)
        case .kind(let name):
            guard type == .string || type == .uri else { throw error("a kind of text ('\(name)') is for String attributes; this one is \(type.rawValue)") }
            guard let kind = TextKind.named(name) else {
                let names = TextKind.allCases.map(\.rawValue)
                throw FixtureError(.invalidGenerator, "\(what): unknown kind '\(name)' (kinds: \(names.joined(separator: ", ")))",
                                   at: location, suggestion: Suggestions.closest(to: name, among: names))
            }
            return .text(kind, nameColumn: nil)
        case .pattern(let text):
            guard type == .string || type == .uri else { throw error("'pattern' is for String attributes; this one is \(type.rawValue)") }
            do {
                return .pattern(try RegexPattern(text))
            } catch {
                throw self.error("the pattern '\(text)' cannot be generated from: \(error.message)")
            }
        case .expression(let text):
            var options = EvaluationOptions()
            let reference = plan.reference
            options.now = { reference }
            options.randomSeed = seed
            do {
                let compiled = try Evaluator.compile(try Parser.parseExpression(text), options: options)
                return .expression(compiled, type, location: location)
            } catch {
                throw self.error("the expression does not compile: \(error.message) [\(error.code.rawValue)]")
            }
        case .sequence(let start, let step):
            switch type {
            case .string, .uri: return .template(try template(start.text), start: 1, step: step)
            case .integer16, .integer32, .integer64:
                guard case .int(let n) = try read(start) else { throw error("bad start") }
                return .integerSequence(start: n, step: step)
            case .double, .float, .decimal:
                guard case .double(let d) = try read(start) else { throw error("bad start") }
                return .doubleSequence(start: d, step: Double(step))
            case .date:
                guard case .date(let d) = try read(start) else { throw error("bad start") }
                return .dateSequence(start: d, step: Double(step))
            default: throw error("'sequence' is for strings, numbers and dates; this one is \(type.rawValue)")
            }
        case .range(let low, let high, let shape, let step):
            return try range(low, high, shape, step)
        }
    }

    /// "Task {n}" → parts; `{n:5}` pads the number with zeros to 5 digits.
    func template(_ text: String) throws(FixtureError) -> [ValueSource.TemplatePart] {
        var parts: [ValueSource.TemplatePart] = []
        var rest = Substring(text.precomposedStringWithCanonicalMapping)
        while let open = rest.range(of: "{n") {
            guard let close = rest[open.upperBound...].firstIndex(of: "}") else { break }
            let inside = rest[open.upperBound..<close]
            guard inside.isEmpty || (inside.first == ":" && Int(inside.dropFirst()) != nil) else { break }
            parts.append(.text(String(rest[..<open.lowerBound])))
            parts.append(.number(width: Int(inside.dropFirst()) ?? 0))
            rest = rest[rest.index(after: close)...]
        }
        parts.append(.text(String(rest)))
        return parts
    }

    func range(_ low: FactoryValue, _ high: FactoryValue, _ shape: DistributionShape, _ step: FactoryValue?) throws(FixtureError) -> ValueSource {
        let lo = try read(low), hi = try read(high)
        switch (lo, hi) {
        case (.int(let a), .int(let b)):
            guard a <= b else { throw error("the range's low bound \(a) is above its high bound \(b)", at: low.location) }
            var s: Int64 = 1
            if let step {
                guard let n = Int64(step.text), n > 0 else { throw error("the step should be a whole number above 0, found '\(step.text)'", at: step.location) }
                s = n
            }
            return .integers(lo: a, hi: b, step: s, shape: shape, skew: 1)
        case (.double(let a), .double(let b)), (.date(let a), .date(let b)):
            guard a <= b else { throw error("the range's low bound is above its high bound", at: low.location) }
            let isDate = attribute.type == .date
            // The grid: the step if given, else the finest decimal the bounds
            // are written with (0.99 → cents); whole days for bare dates.
            let stepText = step?.text ?? ""
            let digits = [low.text, high.text, stepText].map { t in t.contains(".") && !isDate ? t.split(separator: ".").last!.count : 0 }.max()!
            let scale = pow(10.0, Double(min(digits, 9)))
            var grid: Int64 = 1
            if let step {
                guard let d = Double(step.text), d > 0 else { throw error("the step should be a number above 0, found '\(step.text)'", at: step.location) }
                grid = Int64((d * scale).rounded())
            } else if isDate, low.text.count == 10, high.text.count == 10 {
                grid = 86_400
            }
            let sl = Int64((a * scale).rounded()), sh = Int64((b * scale).rounded())
            return .scaled(lo: sl, hi: sh, step: max(1, grid), scale: scale, shape: shape, skew: 1, asDate: isDate)
        default:
            throw error("'range' is for numbers and dates; this one is \(attribute.type.rawValue)", at: low.location)
        }
    }
}
