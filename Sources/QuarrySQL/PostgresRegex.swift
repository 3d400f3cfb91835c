// Placeholder until the translation lands: nothing is translated, so every
// MATCHES on PostgreSQL runs in memory.
public enum PostgresRegex {
    public static func translate(_ icuPattern: String, folding: Folding) -> String? { nil }
}
