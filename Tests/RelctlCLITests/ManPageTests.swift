import Foundation
import Testing
import RelctlTestSupport
@testable import RelctlCLI

/// `relctl help --man`: relctl.1 rendered by groff with every warning on, and checked against the command table,
/// the exit codes and the environment variables the sources read.
@Suite("ManPage")
struct ManPageTests {
    static let folder = NSTemporaryDirectory()
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func page() -> String {
        let result = relctl(["help", "--man"], in: folder)
        #expect(result.code == 0)
        #expect(result.stderr.isEmpty)
        return result.stdout
    }

    /// The page as `man` shows it: groff's man macros to UTF-8 text, every warning on (`-ww`); no line wrapping
    /// in the way of the checks (a wide line length), no hyphenation.
    static func groff() throws -> String {
        try #require(["/usr/bin/groff", "/bin/groff"].first(where: FileManager.default.isExecutableFile(atPath:)),
                     "groff is needed to render the man page (Debian: apt-get install groff-base)")
    }

    static func rendered() throws -> (text: String, warnings: String) {
        let path = try makeTempDirectory(prefix: "relctl-man") + "/relctl.1"
        try Data(page().utf8).write(to: URL(fileURLWithPath: path))
        let groff = try groff()
        let result = try runProcess(groff, ["-ww", "-man", "-Tutf8", "-rLL=400n", "-rHY=0", "-P-cbou", path])
        #expect(result.status == 0)
        return (result.stdout, result.stderr)
    }

    @Test func groffRendersItWithoutAWarning() throws {
        let (text, warnings) = try Self.rendered()
        #expect(warnings == "", "groff -ww: \(warnings)")
        #expect(text.contains("relctl - the release loop for mobile apps"))
        // The same at man's own width (80 columns) and with man's own preprocessing.
        let path = try makeTempDirectory(prefix: "relctl-man") + "/relctl.1"
        try Data(Self.page().utf8).write(to: URL(fileURLWithPath: path))
        let narrow = try runProcess(try Self.groff(), ["-ww", "-man", "-Tutf8", path])
        #expect(narrow.status == 0)
        #expect(narrow.stderr == "", "groff -ww at 80 columns: \(narrow.stderr)")
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/man") {
            let man = try runProcess("/usr/bin/man", ["--warnings", "-l", path], environment: ["MANPAGER": "cat", "PAGER": "cat", "MANWIDTH": "80"])
            #expect(man.status == 0)
            #expect(man.stderr == "", "man --warnings -l: \(man.stderr)")
        }
    }

    @Test func everyCommandAndOptionOfTheTable() throws {
        let (text, _) = try Self.rendered()
        for command in RelctlCLI.commands {
            for spec in [command] + command.subcommands {
                #expect(text.contains(spec.usage), "usage of \(spec.name)")
                #expect(text.contains(spec.summary), "summary of \(spec.name)")
                var options = text.components(separatedBy: spec.usage).dropFirst().first ?? ""
                if let next = options.range(of: "\n   relctl ") { options = String(options[..<next.lowerBound]) }
                for option in spec.options {
                    let shown = option.name + (option.valueName.map { " " + $0 } ?? "")
                    #expect(options.contains("\n       \(shown)\n") || options.contains("\n       \(shown) "),
                            "\(spec.name): \(shown)")
                    #expect(options.contains(option.help), "\(spec.name): help of \(option.name)")
                }
                for positional in spec.positionals {
                    #expect(options.contains("<\(positional.name)>"), "\(spec.name): <\(positional.name)>")
                }
            }
        }
    }

    @Test func exitCodesFilesAndTheEnvironment() throws {
        let (text, _) = try Self.rendered()
        let exitStatus = try #require(text.components(separatedBy: "\nEXIT STATUS\n").dropFirst().first)
        for code in [0, 1, 2, 3, 64] {
            #expect(exitStatus.hasPrefix("       \(code) ") || exitStatus.contains("\n       \(code) "), "exit code \(code)")
        }
        #expect(Set(ExitCode.documented.map(\.0.rawValue)) == [0, 1, 2, 3, 64])
        for file in [".relctl.json", ".major-release-pending", "CHANGELOG.md", ".git/relctl.lock"] {
            #expect(text.contains("\n       \(file)\n"), "file \(file)")
        }
        // Every variable the sources read from the environment (but the test-only RELCTL_TEST_* fault injection and
        // crash points) is documented.
        let environment = try #require(text.components(separatedBy: "\nENVIRONMENT\n").dropFirst().first?
            .components(separatedBy: "\nFILES\n").first)
        let read = try Self.environmentVariablesRead()
        #expect(read.contains("SOURCE_DATE_EPOCH") && read.contains("GITHUB_OUTPUT") && read.contains("RELCTL_GIT_TOKEN"))
        for name in read where !name.hasPrefix("RELCTL_TEST_") {
            #expect(environment.contains(name), "environment variable \(name)")
        }
    }

    /// The names in `environment["NAME"]` and `"NAME"` literals passed to environment lookups, across relctl's Sources.
    static func environmentVariablesRead() throws -> Set<String> {
        var names: Set<String> = []
        let sources = packageRoot.appendingPathComponent("Sources")
        let enumerator = try #require(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
        let lookup = try Regex(#"environment\["([A-Z_]+)"\]"#)
        let composed = try Regex(#"environment\["GIT_\\\(role\)_([A-Z]+)"\]"#)
        // The fuzzing driver (Sources/RelctlFuzz*) is a separate tool with its own variables, not relctl's.
        for case let url as URL in enumerator
        where url.pathExtension == "swift" && !url.path.contains("/Sources/RelctlFuzz") {
            let text = try String(contentsOf: url, encoding: .utf8)
            for match in text.matches(of: lookup) { names.insert(String(match.output[1].substring!)) }
            for match in text.matches(of: composed) {
                for role in ["AUTHOR", "COMMITTER"] { names.insert("GIT_\(role)_\(match.output[1].substring!)") }
            }
        }
        if let role = try? String(contentsOf: sources.appendingPathComponent("RelctlGit/Identity/Identities.swift"), encoding: .utf8),
           role.contains("GIT_\\(role)_DATE") {
            names.formUnion(["GIT_AUTHOR_DATE", "GIT_COMMITTER_DATE"])
        }
        return names
    }
}
