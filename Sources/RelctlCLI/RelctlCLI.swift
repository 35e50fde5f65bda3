import Foundation

/// What every command gets: the environment, where to write, and the folder it runs in.
struct CommandContext {
    let environment: [String: String]
    let output: Output
    let currentDirectory: String
}

/// A failure a command reports as `error: …` with its exit code (1 unless said otherwise).
struct CLIFailure: Error {
    let message: String
    var exitCode: Int32 = 1
}

/// Exit codes, documented in `relctl --help`.
enum ExitCode {
    static let success: Int32 = 0
    static let failure: Int32 = 1
    static let drift: Int32 = 2
    static let haltedForMajor: Int32 = 3
    static let usage: Int32 = 64
}

/// The command line: `run(arguments, environment)` returns the exit code; nothing here calls `exit`.
public enum RelctlCLI {
    /// Runs with the process's own stdout and stderr.
    public static func run(_ arguments: [String], environment: [String: String]) -> Int32 {
        run(arguments, environment: environment, output: .standard(environment: environment),
            currentDirectory: FileManager.default.currentDirectoryPath)
    }

    /// Runs with the given output (tests capture it) and working folder.
    public static func run(_ arguments: [String], environment: [String: String], output: Output,
                           currentDirectory: String) -> Int32 {
        let context = CommandContext(environment: environment, output: output, currentDirectory: currentDirectory)
        guard let first = arguments.first else {
            output.message(mainHelp)
            return ExitCode.usage
        }
        switch first {
        case "-h", "--help":
            output.resultText(mainHelp + "\n")
            return ExitCode.success
        case "--version":
            output.result(relctlVersion)
            return ExitCode.success
        case "help":
            let rest = Array(arguments.dropFirst())
            guard let name = rest.first else {
                output.resultText(mainHelp + "\n")
                return ExitCode.success
            }
            guard let command = commands.first(where: { $0.name == name }), rest.count == 1 else {
                output.error("unknown command '\(rest.joined(separator: " "))'; run 'relctl --help' for the list")
                return ExitCode.usage
            }
            output.resultText(command.help)
            return ExitCode.success
        default:
            break
        }
        guard let command = commands.first(where: { $0.name == first }) else {
            if first.hasPrefix("-") {
                output.error("unknown option '\(first)'")
            } else {
                output.error("unknown command '\(first)'; run 'relctl --help' for the list")
            }
            output.message("usage: relctl <command> [options]")
            return ExitCode.usage
        }
        let parsed: ParsedArguments
        do {
            parsed = try ArgumentParser.parse(Array(arguments.dropFirst()), for: command)
        } catch {
            output.error(error.message)
            output.message("usage: \(error.usage)")
            output.message("See 'relctl help \(command.name)'.")
            return ExitCode.usage
        }
        if parsed.wantsHelp {
            output.resultText(command.help)
            return ExitCode.success
        }
        do {
            return try command.run(parsed, context)
        } catch let failure as CLIFailure {
            output.error(failure.message)
            return failure.exitCode
        } catch let usage as UsageError {
            output.error(usage.message)
            output.message("usage: \(usage.usage)")
            return ExitCode.usage
        } catch {
            output.error("\(error)")
            return ExitCode.failure
        }
    }

    static var commands: [CommandSpec] {
        [NextCommand.spec, ReleaseCommand.spec, ChangelogCommand.spec, StatusCommand.spec,
         InitCommand.spec, CurrentCommand.spec, SyncCommand.spec, AdoptCommand.spec]
    }

    static var mainHelp: String {
        var text = """
        OVERVIEW: relctl \(relctlVersion): the release loop for mobile apps. Reads conventional commits since the
        last release tag, computes the next semantic version, and keeps the app's version files in step.

        USAGE: relctl <command> [options]

        COMMANDS:

        """
        for command in commands { text += CommandSpec.row(command.name, command.summary) }
        text += """

        OPTIONS:
          -h, --help              Show help (also: relctl help <command>, relctl <command> --help).
          --version               Print relctl's version.

        EXIT CODES:
          0 success (or nothing to release)   1 failure   2 version drift between files
          3 halted before a major release      64 usage error

        Results go to stdout, messages to stderr; NO_COLOR or a non-terminal turns colour off.
        """
        return text
    }
}
