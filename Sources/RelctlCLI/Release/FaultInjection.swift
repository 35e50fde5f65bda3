/// Test hook: `RELCTL_TEST_FAULT=after-write|after-commit|after-tag|before-push` makes the release fail there,
/// so tests can prove the rollback leaves the repository as it was.
struct FaultInjection {
    let point: String?
    init(_ environment: [String: String]) { point = environment["RELCTL_TEST_FAULT"] }

    func check(_ here: String) throws {
        if point == here { throw CLIFailure(message: "injected fault at \(here)") }
    }
}
