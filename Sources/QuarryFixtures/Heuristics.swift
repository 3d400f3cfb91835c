// Heuristics: a plausible generator for an attribute that no factory
// describes, from its name, its type and its entity's name. `salary` is an
// integer 30,000–180,000 in steps of 500 on a bell curve; `price` a decimal
// 0.99–999.99 in cents; `email` an address made from the row's own name;
// `startDate` a day in the fifteen years before the reference date; `done`
// true one time in three. Unknown names still get their type's generic
// generator. Model bounds always win: a heuristic range is cut to the
// attribute's min/max, and replaced by them when the two do not overlap.

enum Heuristics {
    static let day = 86_400.0
    static let year = 365.0 * 86_400

    /// Lowercased name without separators, for matching (`start_date` → `startdate`).
    static func key(_ name: String) -> String { FactoryNodes.normalize(name) }

    static func has(_ key: String, _ words: String...) -> Bool { words.contains { key.contains($0) } }

    /// The text kind a string attribute's name suggests, if any.
    static func textKind(_ attribute: String, entity: String) -> TextKind? {
        let k = key(attribute), e = key(entity)
        if has(k, "email", "mail") { return .email }
        if has(k, "firstname", "givenname", "forename") { return .firstName }
        if has(k, "lastname", "surname", "familyname") { return .lastName }
        if has(k, "username", "login", "handle", "nickname") { return .username }
        if has(k, "isbn") { return .isbn }
        if has(k, "url", "website", "homepage", "link") { return .url }
        if has(k, "phone", "mobile", "fax", "tel") { return .phone }
        if has(k, "city", "town") { return .city }
        if has(k, "country", "nation") { return .country }
        if has(k, "street") { return .street }
        if has(k, "address") { return .address }
        if has(k, "zip", "postal", "postcode") { return .zip }
        if has(k, "publisher") { return .publisher }
        if has(k, "company", "employer", "organization", "organisation", "vendor", "supplier") { return .company }
        if has(k, "department") { return .department }
        if has(k, "author", "owner", "manager", "customer", "contact", "assignee") { return .personName }
        if has(k, "jobtitle", "position", "role", "occupation") { return .jobTitle }
        if has(k, "color", "colour") { return .color }
        if has(k, "status", "state") { return .status }
        if has(k, "description", "summary", "note", "comment", "body", "text", "bio", "content") { return .sentence }
        if k == "task" || has(k, "todo", "subject") { return .task }
        if has(k, "title") {
            if has(e, "book", "novel", "album", "movie", "film", "song", "article", "post", "chapter") { return .bookTitle }
            if has(e, "task", "todo", "issue", "ticket") { return .task }
            return has(e, "employee", "person", "staff", "user", "member") ? .jobTitle : .bookTitle
        }
        if has(k, "name") {
            if has(e, "department", "team", "division", "unit") { return .department }
            if has(e, "publisher") { return .publisher }
            if has(e, "company", "organization", "organisation", "vendor", "supplier", "customer", "client", "employer") { return .company }
            if has(e, "project") { return .project }
            if has(e, "city", "town") { return .city }
            if has(e, "country") { return .country }
            if has(e, "tag", "category", "label", "genre") { return .word }
            return .personName
        }
        return nil
    }

    /// The generator for an attribute without a factory.
    static func source(for attribute: Attribute, entity: String, reference: Double, nameColumn: Int?) -> ValueSource {
        let k = key(attribute.name)
        switch attribute.type {
        case .string, .uri:
            if attribute.type == .uri { return .text(.url, nameColumn: nil) }
            let kind = textKind(attribute.name, entity: entity) ?? .words
            return .text(kind, nameColumn: kind == .email ? nameColumn : nil)
        case .integer16, .integer32, .integer64:
            let (lo, hi, step, shape): (Int64, Int64, Int64, DistributionShape) =
                if has(k, "age") { (18, 70, 1, .normal) }
                else if has(k, "salary", "wage", "income", "pay") { (30_000, 180_000, 500, .normal) }
                else if has(k, "budget", "revenue") { (10_000, 5_000_000, 1_000, .zipf) }
                else if has(k, "price", "cost", "amount", "fee", "total") { (1, 500, 1, .zipf) }
                else if has(k, "year") { (1950, 2024, 1, .uniform) }
                else if has(k, "rating", "stars", "score") { (1, 5, 1, .normal) }
                else if has(k, "percent", "pct") { (0, 100, 1, .uniform) }
                else if has(k, "priority", "level", "rank") { (1, 5, 1, .uniform) }
                else if has(k, "quantity", "qty", "count", "stock", "number") { (0, 100, 1, .zipf) }
                else { (0, 1_000, 1, .uniform) }
            return integers(lo, hi, step, shape, attribute)
        case .double, .float, .decimal:
            let (lo, hi, scale, shape): (Double, Double, Double, DistributionShape) =
                if has(k, "salary", "wage", "income") { (30_000, 180_000, 1, .normal) }
                else if has(k, "budget", "revenue") { (10_000, 5_000_000, 1, .zipf) }
                else if has(k, "price", "cost", "amount", "fee", "total", "balance") { (0.99, 999.99, 100, .zipf) }
                else if has(k, "rating", "score") { (1, 5, 10, .normal) }
                else if has(k, "latitude", "lat") { (-90, 90, 1_000_000, .uniform) }
                else if has(k, "longitude", "lng", "lon") { (-180, 180, 1_000_000, .uniform) }
                else if has(k, "percent", "ratio", "rate") { (0, 100, 100, .uniform) }
                else { (0, 1_000, 100, .uniform) }
            return scaled(lo, hi, scale: scale, step: 1, shape, attribute, asDate: false)
        case .date:
            let (from, to, granularity): (Double, Double, Double) =
                if has(k, "birth", "dob") { (-80 * year, -18 * year, day) }
                else if has(k, "start", "hire", "join", "since") { (-15 * year, 0, day) }
                else if has(k, "deadline", "due", "end", "expir", "until") { (-30 * day, year, day) }
                else if has(k, "publish", "release", "issued") { (-30 * year, 0, day) }
                else if has(k, "created", "updated", "modified", "timestamp", "time", "at") { (-3 * year, 0, 1) }
                else { (-2 * year, year, 1) }
            return scaled(reference + from, reference + to, scale: 1, step: Int64(granularity), .uniform, attribute, asDate: true)
        case .boolean:
            let ratio = if has(k, "active", "enabled", "visible", "available", "valid", "verified") { 0.85 }
                else if has(k, "done", "completed", "finished", "paid", "read") { 0.35 }
                else if has(k, "deleted", "archived", "blocked", "banned", "suspended") { 0.05 }
                else { 0.5 }
            return .bool(ratio: ratio)
        case .uuid: return .uuid
        case .binary:
            let lo = Int(FixtureValues.bound(attribute.minimum) ?? 16), hi = Int(FixtureValues.bound(attribute.maximum) ?? 64)
            return .bytes(lo: lo, hi: max(lo, min(hi, lo + 48)))
        default:
            return .constant(.null)
        }
    }

    /// Integers lo...hi (step) cut to the attribute's bounds and type.
    static func integers(_ lo: Int64, _ hi: Int64, _ step: Int64, _ shape: DistributionShape, _ a: Attribute) -> ValueSource {
        let typeRange = a.type.integerRange!
        let minimum = FixtureValues.bound(a.minimum).map { Int64(max($0.rounded(.up), -9.2e18)) } ?? typeRange.lowerBound
        let maximum = FixtureValues.bound(a.maximum).map { Int64(min($0.rounded(.down), 9.2e18)) } ?? typeRange.upperBound
        let floor = max(minimum, typeRange.lowerBound), ceiling = min(maximum, typeRange.upperBound)
        var l = max(lo, floor), h = min(hi, ceiling)
        var s = step
        if l > h {
            // No overlap: the model's own bounds, or near whichever is given.
            (l, h) = a.minimum != nil && a.maximum != nil ? (floor, ceiling)
                : a.minimum != nil ? (floor, floor &+ min(1_000, Int64.max - floor)) : (max(ceiling &- 1_000, typeRange.lowerBound), ceiling)
            s = 1
        }
        return .integers(lo: l, hi: h, step: max(1, s), shape: shape, skew: 1)
    }

    /// Decimals or dates lo...hi on a grid (`step` units of 1/`scale`: cents
    /// are scale 100, whole days scale 1 and step 86,400), cut to the
    /// attribute's bounds. Grid points are multiples of the step, so days
    /// fall on midnight UTC.
    static func scaled(_ lo: Double, _ hi: Double, scale: Double, step: Int64, _ shape: DistributionShape, _ a: Attribute, asDate: Bool) -> ValueSource {
        var l = lo, h = hi
        let minimum = FixtureValues.bound(a.minimum), maximum = FixtureValues.bound(a.maximum)
        if let minimum { l = max(l, minimum) }
        if let maximum { h = min(h, maximum) }
        if l > h {
            l = minimum ?? (maximum! - 1_000)
            h = maximum ?? (minimum! + 1_000)
        }
        // Grid points stay exact integers in a double (below 2^53).
        let limit = 9e15 / scale
        l = min(max(l, -limit), limit)
        h = min(max(h, -limit), limit)
        var sl = Int64((l * scale).rounded(.up)), sh = Int64((h * scale).rounded(.down))
        if step > 1 {
            let aligned = sl.quotientAndRemainder(dividingBy: step)
            sl = (aligned.quotient + (aligned.remainder > 0 ? 1 : 0)) * step
            if sl > sh { sl = Int64((l * scale).rounded(.up)); return .scaled(lo: sl, hi: max(sl, sh), step: 1, scale: scale, shape: shape, skew: 1, asDate: asDate) }
        }
        return .scaled(lo: sl, hi: max(sl, sh), step: step, scale: scale, shape: shape, skew: 1, asDate: asDate)
    }
}
