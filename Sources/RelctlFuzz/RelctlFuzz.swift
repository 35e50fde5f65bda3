import Foundation
import RelctlFuzzing

#if FUZZING
// Built with `-sanitize=fuzzer` (`make fuzz`): `main` hands the process to libFuzzer's driver, which calls
// `fuzzerTestOneInput` with each input (SwiftPM renames an executable's `main`, so libFuzzer's own `main` cannot be
// used). One binary serves every target; RELCTL_FUZZ_TARGET names the one to fuzz.
nonisolated(unsafe) private var selected = FuzzTarget.config

@_silgen_name("LLVMFuzzerRunDriver")
private func runDriver(_ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
                       _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32) -> Int32

private func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    FuzzHarness.run(selected, bytes)
    return 0
}

@main
struct RelctlFuzz {
    static func main() {
        let name = ProcessInfo.processInfo.environment["RELCTL_FUZZ_TARGET"] ?? ""
        guard let target = FuzzTarget(rawValue: name) else {
            FileHandle.standardError.write(Data("set RELCTL_FUZZ_TARGET to one of: \(FuzzTarget.allCases.map(\.rawValue).joined(separator: ", "))\n".utf8))
            exit(64)
        }
        selected = target
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        exit(runDriver(&argc, &argv, { data, size in fuzzerTestOneInput(data, size) }))
    }
}
#else
/// The seeded mutation driver: `relctl-fuzz <target>|all [--seconds S] [--iterations N] [--seed S] [--root DIR]`,
/// or `--dump N` to write input N of the run to stdout (to reproduce a crash and keep it as a regression).
@main
struct RelctlFuzz {
    static func main() {
        var arguments = Array(CommandLine.arguments.dropFirst())
        func option(_ name: String) -> String? {
            guard let i = arguments.firstIndex(of: name), i + 1 < arguments.count else { return nil }
            defer { arguments.removeSubrange(i...(i + 1)) }
            return arguments[i + 1]
        }
        let seconds = option("--seconds").flatMap(Double.init) ?? 20
        let iterations = option("--iterations").flatMap(Int.init) ?? Int.max
        let seed = option("--seed").flatMap(UInt64.init) ?? 1
        let root = option("--root") ?? FileManager.default.currentDirectoryPath
        let dump = option("--dump").flatMap(Int.init)
        let names = FuzzTarget.allCases.map(\.rawValue)
        guard arguments.count == 1, let name = arguments.first, name == "all" || names.contains(name) else {
            FileHandle.standardError.write(Data("usage: relctl-fuzz <\(names.joined(separator: "|"))|all> [--seconds S] [--iterations N] [--seed S] [--root DIR] [--dump N]\n".utf8))
            exit(64)
        }
        let targets = name == "all" ? FuzzTarget.allCases : [FuzzTarget(rawValue: name)!]
        for target in targets {
            let seeds: [[UInt8]]
            do {
                seeds = try FuzzCorpus.seeds(target, root: root)
            } catch {
                FileHandle.standardError.write(Data("relctl-fuzz: \(error); run it from the repository, or pass --root\n".utf8))
                exit(66)
            }
            let driver = MutationDriver(target: target, seeds: seeds, seed: seed)
            if let dump {
                FileHandle.standardOutput.write(Data(driver.input(dump)))
                continue
            }
            let clock = ContinuousClock()
            let deadline = clock.now + .milliseconds(Int(seconds * 1000))
            let ran = driver.run(iterations: iterations) { clock.now >= deadline }
            print("\(target.rawValue): \(ran) inputs (seed \(seed), \(driver.seeds.count) seeds), no crash")
        }
    }
}
#endif
