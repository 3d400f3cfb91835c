// A statement's big values (a context with half a million objects, their
// rows) are parked until its item is over, so that freeing them never comes
// between a Ctrl-C and `interrupted` (ShellSession.park); then they are freed
// on a background queue, so that it does not come between `interrupted` and
// the prompt either (0.7 s after a huge SECTIONS). These tests check where
// and when that freeing happens, not how long it takes: the latencies are
// measured by the opt-in REPLInterruptTests.
import Foundation
import Testing
@testable import QuarryShell

@Suite("Shell: parked values are freed after their item, off the shell's thread")
struct ParkedReleaseTests {
    /// Says on which thread it was freed, in `box`.
    final class Tracker: @unchecked Sendable {
        // @unchecked: only its deinit touches `box` (which is itself safe).
        let box: Box
        init(_ box: Box) { self.box = box }
        deinit {
            box.thread = pthread_self()
            box.freed.signal()
        }
    }

    final class Box: @unchecked Sendable {
        // @unchecked: `thread` is written before `freed` is signalled and read after.
        var thread: pthread_t?
        let freed = DispatchSemaphore(value: 0)
    }

    @Test(arguments: ["EVAL 1", ".print done", "FETCH Department SORT BY name", "EVAL nosuchfunction(1)"])
    func freedOnAnotherThreadOnceTheItemIsOver(item: String) {
        let session = ShellSession(output: { _ in }, errors: { _ in })
        let box = Box()
        session.park(Tracker(box))
        let runner = pthread_self()
        session.run(item, stopOnError: false)
        #expect(session.parked.isEmpty, "the session let go of the item's values")
        #expect(box.freed.wait(timeout: .now() + 30) == .success, "freed")
        #expect(box.thread.map { pthread_equal($0, runner) == 0 } == true, "freed off the thread that ran the item")
    }

    /// A SECTIONS parks its context, controller and rows; they are let go
    /// of when it ends, after its output, which is whole: a row per employee.
    @Test func sectionsLetsGoOfItsValuesAfterItsWholeOutput() {
        var out = ""
        let session = ShellSession(mode: .csv, output: { out += $0 }, errors: { _ in })
        #expect(session.run("COUNT Employee", stopOnError: true) == 0)
        let count = out.split(whereSeparator: \.isNewline).last.flatMap { Int($0) }
        out = ""
        let status = session.run("SECTIONS Employee BY department.name SORT BY department.name, name;", stopOnError: true)
        #expect(status == 0)
        #expect(session.parked.isEmpty)
        #expect(count != nil && out.split(whereSeparator: \.isNewline).count == count! + 1, "a header and a row per employee")
    }
}
