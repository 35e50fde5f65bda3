/// Entry point of the command line, testable in-process.
public enum RelctlCLI {
    public static func run(_ arguments: [String], environment: [String: String]) -> Int32 {
        return 0
    }
}
