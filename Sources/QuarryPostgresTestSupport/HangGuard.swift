// Time limits that turn a hang into a failure, sized for where the tests run.
//
// Swift Testing starts a test's clock when the test starts, not when its body
// first gets a thread: in a process running hundreds of tests on two cores,
// a test can wait minutes for the cooperative pool before it runs a line.
// In the plain run that wait is short and a one-minute limit catches a hang
// quickly; under a sanitizer every test is several times slower and the
// wait grows with it (CI's AddressSanitizer step once failed
// LockedStoreOnPostgresTests — a test of about a second — on its one-minute
// limit, while the suites around it finished at the same moment). So the
// limit is ten times longer where Scripts/sanitizers.sh runs the tests
// (it exports QUARRY_SANITIZER): still a failure for a real hang, never for
// a slow machine.
import Foundation
import Testing

public enum HangGuard {
    /// How many times longer a hang guard waits here: 10 under a sanitizer, else 1.
    public static var factor: Int {
        ProcessInfo.processInfo.environment["QUARRY_SANITIZER"].map { $0.isEmpty ? 1 : 10 } ?? 1
    }

    /// A time limit that only a hang exceeds: `minutes` in a plain run,
    /// `factor` times that under a sanitizer. (`@Test(HangGuard.timeLimit())`:
    /// a `.hangGuard` member spelling is not found by the `@Test` macro's
    /// `any TestTrait` parameter when declared outside Swift Testing.)
    public static func timeLimit(minutes: Int = 1) -> TimeLimitTrait {
        .timeLimit(.minutes(minutes * factor))
    }
}
