// QuarryFixtures: deterministic, realistic test data from a model (issue 7).
// A seeded generator (SeededGenerator.swift), value generators chosen by
// attribute name and type or by a factories file, relationship wiring with
// inverse consistency, and writers for a new SQLite store or JSON, NDJSON,
// CSV and SQL dumps. Everything streams: rows are made, written and dropped.
@_exported import QuarryStore

