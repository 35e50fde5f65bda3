import Foundation

/// A process started and not yet waited for: the concurrency tests start several at the same instant.
public final class RunningProcess: @unchecked Sendable {
    private let process: Process
    private let out = Pipe()
    private let err = Pipe()
    private var outData = Data()
    private var errData = Data()
    private let group = DispatchGroup()

    /// Starts `executable`; stdout and stderr are read as they come (a full pipe never blocks the child).
    public init(_ executable: String, _ arguments: [String], in directory: String? = nil,
                environment extra: [String: String] = [:]) throws {
        process = Process(executable, arguments, in: directory, environment: extra)
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        group.enter()
        DispatchQueue.global().async { [self] in
            outData = out.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        group.enter()
        DispatchQueue.global().async { [self] in
            errData = err.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
    }

    /// Waits for the end; `status` is the exit code, or the signal number when a signal ended it.
    public func wait() -> ProcessResult {
        group.wait()
        process.waitUntilExit()
        return ProcessResult(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                             stderr: String(decoding: errData, as: UTF8.self))
    }

    /// Whether a signal ended the process (after `wait`).
    public var endedBySignal: Bool { process.terminationReason == .uncaughtSignal }
}
