import VersionGate

/// A clock the test moves by hand. `@unchecked`: each test makes its own and uses it from one task.
final class TestClock: @unchecked Sendable {
    var now = GateInstant(secondsSince1970: 1_750_000_000)

    func advance(seconds: Double) { now = now.adding(seconds: seconds) }
}
