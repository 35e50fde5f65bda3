import Foundation
import Testing
import RelctlTestSupport
@testable import RelctlCLI

/// Help is laid out for the width it is read at, and every name relctl does not know gets its nearest name.
@Suite("Help: width, examples, did you mean")
struct HelpLayoutTests {
    /// Every help text relctl has: the main help, each command's and each subcommand's.
    static var helpArguments: [[String]] {
        var all: [[String]] = [["--help"]]
        for command in RelctlCLI.commands {
            all.append(["help", command.name])
            for sub in command.subcommands { all.append(["help"] + sub.name.split(separator: " ").map(String.init)) }
        }
        return all
    }

    @Test(arguments: [80, 100, 60])
    func everyHelpFitsTheWidth(_ width: Int) throws {
        let folder = FileManager.default.temporaryDirectory.path
        for arguments in Self.helpArguments {
            let result = relctl(arguments, in: folder, environment: ["COLUMNS": "\(width)"])
            #expect(result.code == 0, "\(arguments): \(result.stderr)")
            let long = result.stdout.split(separator: "\n").filter { $0.count > width }
            // Only a word longer than the line itself may overflow (none in relctl's help at 60 columns or more).
            #expect(long.isEmpty, "relctl \(arguments.joined(separator: " ")) at \(width) columns:\n\(long.joined(separator: "\n"))")
        }
    }

    /// Wrapping moves line breaks and nothing else: the text without its whitespace is the same at any width.
    @Test func wrappingKeepsEveryWord() {
        let folder = FileManager.default.temporaryDirectory.path
        for arguments in Self.helpArguments {
            let narrow = relctl(arguments, in: folder, environment: ["COLUMNS": "60"]).stdout
            let wide = relctl(arguments, in: folder, environment: ["COLUMNS": "400"]).stdout
            #expect(narrow.filter { !$0.isWhitespace } == wide.filter { !$0.isWhitespace }, "\(arguments)")
            #expect(narrow != wide || narrow.split(separator: "\n").allSatisfy { $0.count <= 60 })
        }
    }

    /// Without COLUMNS and without a terminal (a pipe, a CI log), help is laid out for 80 columns.
    @Test func noTerminalMeans80Columns() {
        let result = relctl(["help", "release"], in: FileManager.default.temporaryDirectory.path)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.allSatisfy { $0.count <= 80 })
        #expect(lines.contains { $0.count > 72 }, "the lines are filled, not only short")
        #expect(result.stdout.hasPrefix("OVERVIEW: Release the next version: sync version files, write the changelog,\n          commit, tag, and push.\n\nUSAGE: relctl release [--dry-run]"))
    }

    @Test func optionRowsWrapUnderTheirDescription() {
        let result = relctl(["help", "release"], in: FileManager.default.temporaryDirectory.path, environment: ["COLUMNS": "70"])
        // The whole help at 70 columns: each option's description wraps under itself (--allow-dirty's among them).
        Golden.expect(GoldenTranscript(["help", "release"], result).rendered, matches: "help/release-at-70-columns.txt")
    }

    @Test func everyCommandHasExamplesInItsHelpAndTheManPage() {
        let folder = FileManager.default.temporaryDirectory.path
        let man = relctl(["help", "--man"], in: folder).stdout
        for command in RelctlCLI.commands {
            let names = command.subcommands.isEmpty ? [command.name] : command.subcommands.map(\.name)
            for name in names {
                let examples = CommandExamples.examples(for: name)
                #expect(!examples.isEmpty, "no example for relctl \(name)")
                let help = relctl(["help"] + name.split(separator: " ").map(String.init), in: folder,
                                  environment: ["COLUMNS": "200"]).stdout
                #expect(help.contains("\nEXAMPLES:\n"), "relctl \(name)")
                for example in examples {
                    #expect(help.contains("  \(example.command)\n      \(example.does)\n"), "relctl \(name): \(example.command)")
                    #expect(example.command.hasPrefix("relctl \(name)") || name == "completions", "\(example.command)")
                    #expect(man.contains(".B \(ManPage.escaped(example.command))\n"), "man: \(example.command)")
                }
            }
        }
    }

    @Test func unknownNamesGetTheNearestOne() {
        let folder = FileManager.default.temporaryDirectory.path
        let cases: [([String], String)] = [
            (["relase"], "error: unknown command 'relase'; did you mean 'release'?\nusage: relctl <command> [options]\n"),
            (["help", "stauts"], "error: unknown command 'stauts'; did you mean 'status'?\n"),
            (["--verison"], "error: unknown option '--verison'; did you mean '--version'?\nusage: relctl <command> [options]\n"),
            (["next", "--jsn"], "error: unknown option '--jsn' for 'relctl next'; did you mean '--json'?\nusage: relctl next [--prerelease CHANNEL] [--offline] [--repo PATH] [--config PATH] [--json] [--project NAME] [--all]\nSee 'relctl help next'.\n"),
            (["release", "--dry"], "error: unknown option '--dry' for 'relctl release'; did you mean '--dry-run'?\nusage: relctl release [--dry-run] [--push] [--remote NAME] [--confirm-major [NAME]] [--allow-dirty] [--include-config] [--build N] [--offline] [--prerelease CHANNEL] [--json] [--repo PATH] [--config PATH] [--project NAME] [--all]\nSee 'relctl help release'.\n"),
            (["gate", "chek"], "error: unknown subcommand 'chek' of 'relctl gate'; did you mean 'check'?\nusage: relctl gate <subcommand> [options]\nSee 'relctl help gate'.\n"),
            (["frobnicate"], "error: unknown command 'frobnicate'; run 'relctl --help' for the list\nusage: relctl <command> [options]\n"),
            (["next", "--quux"], "error: unknown option '--quux' for 'relctl next'\nusage: relctl next [--prerelease CHANNEL] [--offline] [--repo PATH] [--config PATH] [--json] [--project NAME] [--all]\nSee 'relctl help next'.\n"),
        ]
        for (arguments, stderr) in cases {
            let result = relctl(arguments, in: folder)
            #expect(result.code == 64, "\(arguments)")
            #expect(result.stderr == stderr, "\(arguments)")
        }
        // The suggestion works when followed.
        #expect(relctl(["help", "status"], in: folder).code == 0)
    }

    @Test func dashHIsTheShortFormEverywhere() {
        let folder = FileManager.default.temporaryDirectory.path
        #expect(relctl(["-h"], in: folder).stdout == relctl(["--help"], in: folder).stdout)
        #expect(relctl(["next", "-h"], in: folder).stdout == relctl(["help", "next"], in: folder).stdout)
        #expect(relctl(["gate", "-h"], in: folder).stdout == relctl(["help", "gate"], in: folder).stdout)
        #expect(relctl(["gate", "check", "-h"], in: folder).stdout == relctl(["help", "gate", "check"], in: folder).stdout)
    }
}

/// The examples in the help are commands that work as written: each one that reads (and the dry runs) is run on
/// Harbor, an Expo app released as v2.4.1 with work since, exactly as the help prints it.
@Suite("Help examples run as written")
struct CommandExamplesTests {
    /// Words of an example command line (double quotes group words, as a shell does).
    static func words(_ line: String) -> [String] {
        var words: [String] = []
        var current = ""
        var quoted = false
        for c in line {
            if c == "\"" { quoted.toggle(); continue }
            if c == " " && !quoted {
                if !current.isEmpty { words.append(current) }
                current = ""
            } else {
                current.append(c)
            }
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    @Test func theReadingExamplesSucceedOnAnApp() throws {
        let repo = try GoldenApp.harbor()
        var ran = 0
        for command in RelctlCLI.commands {
            for name in [command.name] + command.subcommands.map(\.name) {
                for example in CommandExamples.examples(for: name) {
                    var arguments = Self.words(example.command)
                    // A shell line (completions), or the gate's (run on gate apps in the gate suites).
                    guard arguments.first == "relctl", !arguments.contains("|"), arguments.dropFirst().first != "gate" else { continue }
                    arguments.removeFirst()
                    // Only what reads or plans: the dry runs, and the commands that write nothing.
                    let reads = ["next", "changelog", "status", "current", "lint", "completions"].contains(arguments[0])
                        || arguments.contains("--dry-run") || arguments == ["help"]
                    guard reads, !arguments.contains("--repo") else { continue }
                    if arguments.contains("--range") {
                        arguments = arguments.map { $0 == "origin/main..HEAD" ? "v2.4.1..HEAD" : $0 }
                    }
                    if arguments.contains("--message-file") {
                        try repo.write(".git/COMMIT_EDITMSG", "fix(sync): keep edits on a flaky network\n")
                    }
                    // Harbor is at 2.4.1: a sync example's version, one above it.
                    arguments = arguments.map { $0 == "1.4.0" ? "2.5.0" : $0 }
                    let result = relctl(arguments, in: repo.path, environment: repo.goldenEnvironment())
                    #expect(result.code == 0, "\(example.command): \(result.stderr)")
                    ran += 1
                }
            }
        }
        #expect(ran >= 10)
    }
}
