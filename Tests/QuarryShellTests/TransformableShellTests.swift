// The shell over a YAML model with transformable attributes (the default
// keyed archive and JSON), on SQLite and (when a server is configured)
// PostgreSQL, byte for byte the same: INSERT and UPDATE encode, FETCH shows
// the decoded values (as a table and as NDJSON), WHERE compares
// decoded values (nil tests in SQL, the rest in memory), DELETE by such a
// predicate deletes the right rows, a value the transformer cannot encode
// is refused naming the attribute, and a sort by a transformable is B004.
import Foundation
import QuarryPostgresTestSupport
import Testing
@testable import QuarryShell

@Suite("Shell: transformable attributes", .serialized)
struct TransformableShellTests {
    static let model = """
    entities:
      Item:
        attributes:
          name: string
          tags: { type: transformable }
          settings: { type: transformable, transformer: JSON }
    """

    static let setUp = """
    INSERT Item {name: 'a', tags: {'red', 'blue'}, settings: 'dark'};
    INSERT Item {name: 'b', tags: 7};
    INSERT Item {name: 'c'};
    """

    /// (statement, stdout, stderr, status)
    static let cases: [(String, String, String, Int32)] = [
        ("FETCH Item PROPERTIES name, tags, settings SORT BY name",
         " name | tags        | settings\n------+-------------+----------\n a    | [red, blue] | dark\n b    | 7           | NULL\n c    | NULL        | NULL\n(3 rows)\n", "", 0),
        (".mode ndjson\nFETCH Item SORT BY name",
         "{\"name\":\"a\",\"tags\":[\"red\",\"blue\"],\"settings\":\"dark\"}\n{\"name\":\"b\",\"tags\":7,\"settings\":null}\n{\"name\":\"c\",\"tags\":null,\"settings\":null}\n", "", 0),
        ("FETCH Item PROPERTIES name WHERE tags CONTAINS 'red'", " name\n------\n a\n(1 row)\n", "", 0),
        ("FETCH Item PROPERTIES name WHERE tags == nil", " name\n------\n c\n(1 row)\n", "", 0),
        ("FETCH Item PROPERTIES name WHERE tags > 5", " name\n------\n b\n(1 row)\n", "", 0),
        ("UPDATE Item SET tags = {'green'} WHERE name == 'b'; FETCH Item PROPERTIES name, tags WHERE tags != nil SORT BY name",
         "updated 1 object\n name | tags\n------+-------------\n a    | [red, blue]\n b    | [green]\n(2 rows)\n", "", 0),
        ("DELETE Item WHERE tags CONTAINS 'green'; FETCH Item PROPERTIES name, tags SORT BY name",
         "deleted 1 object\n name | tags\n------+-------------\n a    | [red, blue]\n c    | NULL\n(2 rows)\n", "", 0),
        ("FETCH Item SORT BY tags", "",
         "1:1: error[B004]: cannot sort by 'tags': Item.tags is transformable, and its encoded values have no order\n    FETCH Item SORT BY tags\n    ^\nhelp: sort by another attribute, or sort the fetched objects yourself by the decoded value\n", 65),
    ]

    @Test(arguments: TranscriptTable.locations)
    func transcripts(location: String) throws {
        try TranscriptTable.run(at: location, model: Self.model, setUp: Self.setUp, cases: Self.cases)
    }
}
