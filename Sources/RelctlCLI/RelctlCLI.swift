#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// The command line: `run(arguments, environment)` returns the exit code; nothing here calls `exit`.
package enum RelctlCLI {
    /// Runs with the process's own stdout and stderr.
    package static func run(_ arguments: [String], environment: [String: String]) -> Int32 {
        run(arguments, environment: environment, output: .standard(environment: environment),
            currentDirectory: FileManager.default.currentDirectoryPath)
    }

    /// Runs with the given output (tests capture it) and working folder.
    package static func run(_ arguments: [String], environment: [String: String], output: Output,
                           currentDirectory: String) -> Int32 {
        let context = CommandContext(environment: environment, output: output, currentDirectory: currentDirectory)
        guard let first = arguments.first else {
            output.message(mainHelp)
            return ExitCode.usage.rawValue
        }
        switch first {
        case "-h", "--help":
            output.resultText(mainHelp + "\n")
            return ExitCode.success.rawValue
        case "--version":
            output.result(relctlVersion)
            return ExitCode.success.rawValue
        case "help":
            let rest = Array(arguments.dropFirst())
            guard !rest.isEmpty else {
                output.resultText(mainHelp + "\n")
                return ExitCode.success.rawValue
            }
            guard let command = CommandLookup.find(rest, in: commands) else {
                output.error("unknown command '\(rest.joined(separator: " "))'; run 'relctl --help' for the list")
                return ExitCode.usage.rawValue
            }
            output.resultText(command.help)
            return ExitCode.success.rawValue
        default:
            break
        }
        guard var command = commands.first(where: { $0.name == first }) else {
            if first.hasPrefix("-") {
                output.error("unknown option '\(first)'")
            } else {
                output.error("unknown command '\(first)'; run 'relctl --help' for the list")
            }
            output.message("usage: relctl <command> [options]")
            return ExitCode.usage.rawValue
        }
        var rest = Array(arguments.dropFirst())
        if !command.subcommands.isEmpty {
            switch CommandLookup.subcommand(of: command, rest) {
            case .found(let subcommand, let arguments):
                command = subcommand
                rest = arguments
            case .groupHelp:
                output.resultText(command.help)
                return ExitCode.success.rawValue
            case .failure(let message):
                output.error(message)
                output.message("usage: \(command.usage)")
                output.message("See 'relctl help \(command.name)'.")
                return ExitCode.usage.rawValue
            }
        }
        let parsed: ParsedArguments
        do {
            parsed = try ArgumentParser.parse(rest, for: command)
        } catch {
            output.error(error.message)
            output.message("usage: \(error.usage)")
            output.message("See 'relctl help \(command.name)'.")
            return ExitCode.usage.rawValue
        }
        if parsed.wantsHelp {
            output.resultText(command.help)
            return ExitCode.success.rawValue
        }
        do {
            try command.run(parsed, context)
            return ExitCode.success.rawValue
        } catch {
            return ErrorReport.report(error, output: output, root: context.run.repositoryRoot).rawValue
        }
    }

    static var commands: [CommandSpec] {
        [NextCommand.spec, ReleaseCommand.spec, ChangelogCommand.spec, StatusCommand.spec,
         InitCommand.spec, CurrentCommand.spec, SyncCommand.spec, AdoptCommand.spec, GateCommand.spec,
         LintCommand.spec, HooksCommand.spec]
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
          0 success (or nothing to release)   1 failure   2 version drift, gate check problems or lint errors
          3 halted before a major release      64 usage error

        Results go to stdout, messages to stderr; NO_COLOR or a non-terminal turns colour off.
        """
        return text
    }
}
