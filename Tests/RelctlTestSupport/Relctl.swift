import Foundation

/// The `relctl` executable built beside the test bundle (`swift test` builds it: the CLI tests depend on it).
public func relctlExecutable() throws -> String {
    #if os(Linux)
    let exe = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
    #else
    // macOS runs the tests in an .xctest bundle (X.xctest/Contents/MacOS/X) inside the build folder.
    let exe = Bundle.allBundles.first { $0.bundlePath.hasSuffix(".xctest") }?.executablePath
        ?? Bundle.main.executablePath ?? CommandLine.arguments[0]
    #endif
    var dir = URL(fileURLWithPath: exe).deletingLastPathComponent()
    // The test binary may sit inside a bundle folder: walk up until the build folder holding `relctl`.
    for _ in 0..<4 {
        let candidate = dir.appendingPathComponent("relctl").path
        if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        dir = dir.deletingLastPathComponent()
    }
    throw CommandFailed(description: "relctl executable not found near \(exe); run the tests with 'swift test'")
}

/// Runs the real `relctl` binary as a separate process.
public func runRelctl(_ arguments: [String], in directory: String? = nil, environment: [String: String] = [:]) throws -> ProcessResult {
    var env = ["NO_COLOR": "1"]
    for (k, v) in environment { env[k] = v }
    return try runProcess(try relctlExecutable(), arguments, in: directory, environment: env)
}
