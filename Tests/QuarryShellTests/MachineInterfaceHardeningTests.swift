// Hostile and awkward input to the machine interface (issue 19): JSON `\u`
// escapes decoded as RFC 8259 says (a lone surrogate is U+FFFD, never a
// crash), every line answered (a blank one with an error), each answer
// flushed at once, decimals printed exactly, and `%K` keys printed so that
// the canonical form re-parses to the same tree.
import Foundation
import Testing
@testable import QuarryShell

@Suite("Machine interface hardening")
struct MachineInterfaceHardeningTests {
    static let escapes: [(String, String?)] = [
        (#""\ud800\u0041""#, "\u{FFFD}A"),          // high surrogate, then a plain escape
        (#""\ud800\ue000""#, "\u{FFFD}\u{E000}"),   // not U+10400
        (#""\ud83d\ude00""#, "😀"),
        (#""\udc00x""#, "\u{FFFD}x"),                // lone low surrogate
        (#""\ud800""#, "\u{FFFD}"),
        (#""\ud800\ud800\udc00""#, "\u{FFFD}\u{10000}"),
        (#""\u00e9\u0000""#, "é\u{0}"),
        (#""\u+abc""#, nil),                           // four hex digits, exactly
        (#""\ud800\u12""#, nil),
        (#""\u-001""#, nil),
    ]

    @Test(arguments: escapes)
    func unicodeEscapes(json: String, expected: String?) {
        let parsed = try? JSON.parse(json)
        #expect(parsed == expected.map(JSON.string))
    }

    @Test func loneSurrogateArgumentEvaluates() throws {
        let a = try answer(#"{"id":1,"kind":"expression","format":"%@","args":["\ud800\u0041"]}"#)
        #expect(a["ok"] == .bool(true))
        #expect(a["result"] == .string("\u{FFFD}A"))
    }

    static let blankLines = ["", " ", "\t", "  \t  ", "\r"]

    @Test(arguments: blankLines)
    func blankLinesGetAnErrorAnswer(line: String) throws {
        let a = try JSON.parse(MachineInterface().answer(line: line))
        #expect(a["ok"] == .bool(false))
        #expect(a["error"]?["code"] == .string("A006"))
        #expect(a["error"]?["stage"] == .string("input"))
    }

    @Test func everyLineIsAnsweredInOrder() throws {
        var lines = [#"{"id":1,"format":"TRUEPREDICATE"}"#, "", "   ", #"{"id":2,"kind":"expression","format":"%@","args":["\ud800"]}"#,
                     "nonsense", #"{"id":3,"format":"1 == 1"}"#][...]
        var answers: [JSON] = []
        MachineInterface().serve(readLine: { lines.popFirst() }, write: { answers.append((try? JSON.parse($0)) ?? .null) })
        #expect(answers.count == 6)
        #expect(answers.map { $0["id"] ?? .null } == [.int(1), .null, .null, .int(2), .null, .int(3)])
        #expect(answers.map { $0["ok"] ?? .null } == [.bool(true), .bool(false), .bool(false), .bool(true), .bool(false), .bool(true)])
    }

    static let decimals: [(String, String)] = [
        ("CAST('1e127', 'NSDecimalNumber')", "1e127"),
        ("CAST('0.1', 'NSDecimalNumber')", "0.1"),
        ("CAST('-12.5', 'NSDecimalNumber')", "-12.5"),
        ("CAST('12345678901234567890.123', 'NSDecimalNumber')", "12345678901234567890.123"),
        ("CAST('42', 'NSDecimalNumber')", "42"),
        ("CAST('1e-20', 'NSDecimalNumber')", "0.00000000000000000001"),
    ]

    @Test(arguments: decimals)
    func decimalsPrintExactly(format: String, expected: String) throws {
        let text = MachineInterface().answer(line: JSON.object([("kind", .string("expression")), ("format", .string(format))]).serialized)
        #expect(text.contains(#""result":\#(expected),"#), "\(text)")
        // And the answer is still JSON a client can read.
        #expect((try? JSON.parse(text)) != nil)
    }

    @Test(arguments: decimals)
    func evalCommandPrintsDecimalsExactly(format: String, expected: String) {
        let outcome = EvalCommand(format: format, asExpression: true, object: nil, arguments: [], variables: []).run()
        #expect(outcome.stdout == expected)
    }

    @Test func evalCommandTakesALoneSurrogateArgument() {
        let outcome = EvalCommand(format: "%@", asExpression: true, object: nil,
                                  arguments: [CommandLineValue.parse(#""\ud800\u0041""#)], variables: []).run()
        #expect(outcome.exitCode == 0)
        #expect(outcome.stdout == "\"\u{FFFD}A\"")
    }

    static let keys: [(String, String)] = [
        ("0", "#0 == 1"), ("1abc", "#1abc == 1"), ("size", "#size == 1"), ("name", "name == 1"),
        ("a.0", "a.#0 == 1"), ("0.b", "#0.b == 1"),
        ("first name", #"#"first name" == 1"#), ("a-b", #"#"a-b" == 1"#), ("a..b", #"a.#"".b == 1"#),
        ("q\"uote", #"#"q\"uote" == 1"#), ("\u{A0}x", "#\"\u{A0}x\" == 1"), ("é", "é == 1"),
    ]

    @Test(arguments: keys)
    func keyArgumentsPrintSoTheyReparse(key: String, printed: String) throws {
        let tree = try Parser.parsePredicate(SourceText("%K == 1"), arguments: [.string(key)])
        let text = Printer.format(tree)
        #expect(text == printed)
        let again = try Parser.parsePredicate(SourceText(text))
        #expect(Printer.format(again) == text)
        guard case .comparison(let a) = tree.kind, case .comparison(let b) = again.kind else {
            Issue.record("not a comparison"); return
        }
        #expect(a.lhs.kind == b.lhs.kind)
    }

    /// The built executable answers a request while its stdin is still open:
    /// a client that writes one line and waits must get its answer.
    @Test(.enabled(if: REPLTerminalTests.binary != nil, "needs the built quarry executable"))
    func answersAreFlushedAtOnce() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: REPLTerminalTests.binary!)
        process.arguments = ["eval", "--jsonl"]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        defer { try? input.fileHandleForWriting.close(); process.waitUntilExit() }
        input.fileHandleForWriting.write(Data(#"{"id":7,"format":"1 == 1"}"#.utf8 + [0x0A]))
        // Read with a deadline: without the flush the answer sits in the buffer.
        let fd = output.fileHandleForReading.fileDescriptor
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        #expect(poll(&poller, 1, 10_000) == 1, "no answer within 10 s while stdin stays open")
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = read(fd, &buffer, buffer.count)
        #expect(n > 0)
        #expect(String(decoding: buffer.prefix(max(n, 0)), as: UTF8.self).hasPrefix(#"{"id":7,"ok":true"#))
    }
}
