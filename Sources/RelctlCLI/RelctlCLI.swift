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
    ///
    /// Output that cannot be written never stops the work half-way: SIGPIPE is ignored while relctl works, and a
    /// failed write is remembered (`StandardStream`). At the end, with the work finished or rolled back and the
    /// repository lock released: a reader that went away (EPIPE) ends relctl as it ends git, by SIGPIPE (exit status
    /// 141 in a shell) when the command succeeded; any other failure to write stdout (a full device) is an error on
    /// stderr and exit 1 when the command succeeded. A command that failed keeps its own exit code. A stdout closed
    /// before relctl started (`>&-`) means no one wants the output: it is dropped, as git does.
    ///
    /// `relctl --version` reads only the two variables its output's colour depends on: the whole environment (a
    /// dictionary, and with it the Swift runtime's first protocol conformance scan) and the working folder are read
    /// for the other commands.
    package static func run(_ arguments: [String], environment: @autoclosure () -> [String: String]) -> Int32 {
        signal(SIGPIPE, SIG_IGN)
        let closed = StandardStream.openClosedDescriptors()
        let output: Output
        let code: Int32
        if arguments.first == "--version" {
            let noColor = (getenv("NO_COLOR").map { $0.pointee != 0 } ?? false)
                || (getenv("TERM").map { strcmp($0, "dumb") == 0 } ?? false)
            output = Output.standard(noColor: noColor, closed: closed)
            output.result(relctlVersion)
            code = ExitCode.success.rawValue
        } else {
            let environment = environment()
            output = Output.standard(environment: environment, closed: closed)
            code = run(arguments, environment: environment, output: output,
                       currentDirectory: FileManager.default.currentDirectoryPath)
        }
        guard code == ExitCode.success.rawValue, let failure = output.standardOut?.failure else { return code }
        if failure == EPIPE {
            signal(SIGPIPE, SIG_DFL)
            raise(SIGPIPE)
        }
        output.error("cannot write to stdout: \(String(cString: strerror(failure))); the command's work is done (see the messages above), only its output is lost")
        return ExitCode.failure.rawValue
    }

    /// Runs with the given output (tests capture it) and working folder.
    package static func run(_ arguments: [String], environment: [String: String], output: Output,
                           currentDirectory: String) -> Int32 {
        // The forge's answers are kept for one run: a cache of its own for each (in-process tests run many at once).
        ForgeAuthors.$cache.withValue(ForgeAuthors.Cache()) {
            runCommand(arguments, environment: environment, output: output, currentDirectory: currentDirectory)
        }
    }

    private static func runCommand(_ arguments: [String], environment: [String: String], output: Output, currentDirectory: String) -> Int32 {
        let context = CommandContext(environment: environment, output: output, currentDirectory: currentDirectory)
        let width = HelpLayout.width(environment: environment, output: output)
        func help(_ text: String) -> String {
            var laid = Substring(HelpLayout.wrap(text, width: width))
            while laid.last == "\n" { laid = laid.dropLast() }
            return laid + "\n"
        }
        guard let first = arguments.first else {
            output.message(String(help(mainHelp).dropLast()))
            return ExitCode.usage.rawValue
        }
        switch first {
        case "-h", "--help":
            output.resultText(help(mainHelp))
            return ExitCode.success.rawValue
        case "--version":
            output.result(relctlVersion)
            return ExitCode.success.rawValue
        case "help":
            let rest = Array(arguments.dropFirst())
            guard !rest.isEmpty else {
                output.resultText(help(mainHelp))
                return ExitCode.success.rawValue
            }
            if rest == ["--man"] {
                output.resultText(ManPage(commands: commands).text)
                return ExitCode.success.rawValue
            }
            guard let command = CommandLookup.find(rest, in: commands) else {
                let near = rest.count == 1 ? Spelling.nearest(rest[0], among: commands.map(\.name)) : nil
                output.error("unknown command '\(rest.joined(separator: " "))'" + (near.map { "; did you mean '\($0)'?" }
                    ?? "; run 'relctl --help' for the list"))
                return ExitCode.usage.rawValue
            }
            output.resultText(help(command.help))
            return ExitCode.success.rawValue
        default:
            break
        }
        guard var command = commands.first(where: { $0.name == first }) else {
            if first.hasPrefix("-") {
                output.error("unknown option '\(first)'" + Spelling.suggestion(first, among: ["--help", "--version"]))
            } else if let near = Spelling.nearest(first, among: commands.map(\.name) + ["help"]) {
                output.error("unknown command '\(first)'; did you mean '\(near)'?")
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
                output.resultText(help(command.help))
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
            output.resultText(help(command.help))
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
        [NextCommand.spec, ReleaseCommand.spec, ReleasePRCommand.spec, PublishReleaseCommand.spec, ChangelogCommand.spec, NotesCommand.spec, StatusCommand.spec,
         InitCommand.spec, CurrentCommand.spec, SyncCommand.spec, AdoptCommand.spec, GateCommand.spec,
         LintCommand.spec, HooksCommand.spec, CompletionsCommand.spec]
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
          -h, --help              Show help (also: relctl help <command>, relctl <command> --help;
                                  relctl help --man prints the man page).
          --version               Print relctl's version.

        EXIT CODES:
          0 success (or nothing to release)   1 failure   2 version drift, gate check problems or lint errors
          3 halted before a major release      64 usage error

        Results go to stdout, messages to stderr; NO_COLOR or a non-terminal turns colour off.
        """
        return text
    }
}
