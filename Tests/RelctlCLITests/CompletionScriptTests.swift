import Foundation
import Testing
import RelctlTestSupport
@testable import RelctlCLI

/// `relctl completions bash|zsh|fish`: the bash script is sourced in a real bash and asked for completions as
/// bash asks (COMP_WORDS, COMP_CWORD, then COMPREPLY); zsh (through zpty and compinit) and fish (complete -C) are
/// asked the same way when installed (Debian: apt-get install zsh fish), else only the scripts' structure is checked.
@Suite("Completions")
struct CompletionScriptTests {
    /// The folder the completions run in: a few files and folders to complete.
    let folder: String

    init() throws {
        folder = try makeTempDirectory(prefix: "relctl-completion")
        try Data("{}\n".utf8).write(to: URL(fileURLWithPath: folder + "/release.json"))
        try Data("feat: x\n".utf8).write(to: URL(fileURLWithPath: folder + "/message.txt"))
        try FileManager.default.createDirectory(atPath: folder + "/apps/ledger", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: folder + "/archive", withIntermediateDirectories: true)
    }

    func script(_ shell: String) throws -> String {
        let result = relctl(["completions", shell], in: folder)
        #expect(result.code == 0)
        #expect(result.stderr.isEmpty)
        let path = try makeTempDirectory(prefix: "relctl-completion-script") + "/relctl.\(shell)"
        try Data(result.stdout.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// What bash offers for the command line `words` with the cursor at the last word (the word being typed).
    func bashCompletions(_ words: [String]) throws -> [String] {
        let script = try script("bash")
        let quoted = words.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        let program = """
            source '\(script)' || exit 9
            [ "$(complete -p relctl)" = "complete -F _relctl relctl" ] || exit 8
            COMP_WORDS=(\(quoted)); COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
            COMP_LINE="${COMP_WORDS[*]}"; COMP_POINT=${#COMP_LINE}
            _relctl relctl "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let result = try runProcess("/bin/bash", ["--norc", "--noprofile", "-c", program], in: folder)
        #expect(result.status == 0, "bash: \(result.stderr)")
        #expect(result.stderr.isEmpty, "bash: \(result.stderr)")
        return result.stdout.split(separator: "\n").map(String.init).sorted()
    }

    @Test func commandsAtTheFirstWordComeFromTheTable() throws {
        let all = try bashCompletions(["relctl", ""])
        #expect(all == (RelctlCLI.commands.map(\.name) + ["help", "--help", "--version"]).sorted())
        #expect(try bashCompletions(["relctl", "re"]) == ["release", "release-pr"])
        #expect(try bashCompletions(["relctl", "co"]) == ["completions"])
    }

    @Test func subcommandsOfAGroup() throws {
        #expect(try bashCompletions(["relctl", "gate", ""]) == ["--help", "check", "evaluate", "keep-min", "plan", "publish", "pull", "raise-min", "set-latest", "status"])
        #expect(try bashCompletions(["relctl", "gate", "r"]) == ["raise-min"])
        #expect(try bashCompletions(["relctl", "hooks", ""]) == ["--help", "install", "uninstall"])
        #expect(try bashCompletions(["relctl", "help", "gate", "k"]) == ["keep-min"])
        #expect(try bashCompletions(["relctl", "help", "--"]) == ["--man"])
    }

    @Test func optionsOfACommandAndOfASubcommand() throws {
        #expect(try bashCompletions(["relctl", "release", "--c"]) == ["--config", "--confirm-major"])
        #expect(try bashCompletions(["relctl", "next", ""]) == ["--all", "--config", "--help", "--json", "--offline", "--prerelease", "--project", "--repo"])
        #expect(try bashCompletions(["relctl", "gate", "evaluate", "--p"]) == ["--platform"])
        #expect(try bashCompletions(["relctl", "hooks", "install", "--f"]) == ["--force"])
        // An option already given is not offered again (the parser refuses it twice).
        #expect(try bashCompletions(["relctl", "next", "--json", "--repo", ".", "--"]) == ["--all", "--config", "--help", "--offline", "--prerelease", "--project"])
    }

    @Test func optionValues() throws {
        #expect(try bashCompletions(["relctl", "gate", "evaluate", "2.4.1", "--platform", ""]) == ["android", "ios"])
        #expect(try bashCompletions(["relctl", "gate", "plan", "--platform", "i"]) == ["ios"])
        // --platform=value, split by bash at '='.
        #expect(try bashCompletions(["relctl", "gate", "plan", "--platform", "=", "a"]) == ["android"])
        #expect(try bashCompletions(["relctl", "gate", "plan", "--platform", "="]) == ["android", "ios"])
        // Free text: nothing to offer, and no option either.
        #expect(try bashCompletions(["relctl", "sync", "--build", ""]) == [])
    }

    @Test func pathsForPathOptions() throws {
        #expect(try bashCompletions(["relctl", "next", "--config", "rel"]) == ["release.json"])
        #expect(try bashCompletions(["relctl", "lint", "--message-file", "m"]) == ["message.txt"])
        // --repo takes folders only.
        #expect(try bashCompletions(["relctl", "status", "--repo", "a"]) == ["apps", "archive"])
        #expect(try bashCompletions(["relctl", "status", "--repo", "apps/"]) == ["apps/ledger"])
    }

    @Test func gitRemotesForRemote() throws {
        let repo = try TestRepository()
        try repo.git(["remote", "add", "origin", "https://example.com/app.git"])
        try repo.git(["remote", "add", "upstream", "https://example.com/upstream.git"])
        let script = try script("bash")
        let program = """
            source '\(script)'
            COMP_WORDS=(relctl release --push --remote ''); COMP_CWORD=4
            _relctl; printf '%s\\n' "${COMPREPLY[@]}"
            """
        let result = try runProcess("/bin/bash", ["--norc", "--noprofile", "-c", program], in: repo.path,
                                    environment: repo.gitEnvironment())
        #expect(result.stdout.split(separator: "\n").sorted() == ["origin", "upstream"])
    }

    @Test func positionalWords() throws {
        #expect(try bashCompletions(["relctl", "completions", ""]) == ["bash", "fish", "zsh"])
        #expect(try bashCompletions(["relctl", "completions", "z"]) == ["zsh"])
        // Once given, the shell is not offered again.
        #expect(try bashCompletions(["relctl", "completions", "bash", ""]) == ["--help"])
        // A free positional (a version) gets nothing until an option is started.
        #expect(try bashCompletions(["relctl", "sync", ""]) == [])
        #expect(try bashCompletions(["relctl", "sync", "1.2.0", "--d"]) == ["--dry-run"])
    }

    @Test func everyOptionOfTheTableIsInEveryScript() throws {
        let scripts = try ["bash", "zsh", "fish"].map { try String(contentsOfFile: script($0), encoding: .utf8) }
        for entry in CompletionTable(RelctlCLI.commands).entries {
            for option in entry.options {
                #expect(scripts[0].contains(option.name), "bash: \(entry.key) \(option.name)")
                #expect(scripts[1].contains("'\(option.name)") || scripts[1].contains("'*\(option.name)"), "zsh: \(entry.key) \(option.name)")
                #expect(scripts[2].contains("'__relctl_command \(entry.key)' -l \(option.name.dropFirst(2))"),
                        "fish: \(entry.key) \(option.name)")
            }
        }
    }

    /// What zsh's completion system offers for the command line: an interactive zsh in a pseudo-terminal (zpty)
    /// loads the script as `_relctl` from $fpath through compinit; a key bound to a widget runs complete-word on
    /// the line, every candidate passed to compadd is written down, and the widget then prints a mark on the
    /// terminal (COMPLETION-42, which is not its own text, so the terminal's echo of the definition never matches).
    func zshCompletions(_ line: String, zsh: String) throws -> [String] {
        let functions = try makeTempDirectory(prefix: "relctl-zsh-fpath")
        try Data(relctl(["completions", "zsh"], in: folder).stdout.utf8).write(to: URL(fileURLWithPath: functions + "/_relctl"))
        let hits = functions + "/hits"
        let driver = """
            zmodload zsh/zpty
            zpty -b z 'zsh -f -i'
            zpty -w z 'PS1="> "; cd \(folder); fpath=(\(functions) $fpath); autoload -Uz compinit; compinit -u -D'
            zpty -w z 'compadd() { local -a h; builtin compadd -O h "$@"; (( $#h )) && print -l -- $h >> \(hits); builtin compadd "$@"; }'
            zpty -w z 'complete-then-mark() { zle complete-word; print -n -- "COMPLETION-$((6 * 7))" > /dev/tty; }; zle -N complete-then-mark; bindkey "^T" complete-then-mark'
            zpty -w -n z $'\(line)\\C-t'
            zpty -r z junk '*COMPLETION-42*'
            zpty -d z
            """
        let result = try runProcess("/usr/bin/timeout", ["60", zsh, "-f", "-c", driver])
        #expect(result.status == 0, "zsh: \(result.stderr)")
        let text = (try? String(contentsOfFile: hits, encoding: .utf8)) ?? ""
        return Set(text.split(separator: "\n").map(String.init)).sorted()
    }

    @Test func zshCompletesFromItsScript() throws {
        let path = try script("zsh")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.hasPrefix("#compdef relctl\n"))
        guard let zsh = ["/usr/bin/zsh", "/bin/zsh"].first(where: FileManager.default.isExecutableFile(atPath:)) else { return }
        let parse = try runProcess(zsh, ["-n", path])
        #expect(parse.status == 0, "zsh -n: \(parse.stderr)")
        #expect(parse.stderr.isEmpty, "zsh -n: \(parse.stderr)")
        #expect(try zshCompletions("relctl ", zsh: zsh) == (RelctlCLI.commands.map(\.name) + ["help"]).sorted())
        #expect(try zshCompletions("relctl gate ", zsh: zsh) == ["check", "evaluate", "keep-min", "plan", "publish", "pull", "raise-min", "set-latest", "status"])
        #expect(try zshCompletions("relctl release --c", zsh: zsh) == ["--config", "--confirm-major"])
        #expect(try zshCompletions("relctl gate evaluate 2.4.1 --platform ", zsh: zsh) == ["android", "ios"])
        #expect(try zshCompletions("relctl lint --message-file mess", zsh: zsh) == ["message.txt"])
        #expect(try zshCompletions("relctl completions ", zsh: zsh) == ["bash", "fish", "zsh"])
    }

    /// What fish offers for the command line (`complete -C`), candidates without their descriptions.
    func fishCompletions(_ line: String, fish: String) throws -> [String] {
        let script = try script("fish")
        let result = try runProcess(fish, ["--no-config", "-c", "source '\(script)'; complete -C'\(line)'"], in: folder)
        #expect(result.status == 0, "fish: \(result.stderr)")
        #expect(result.stderr.isEmpty, "fish: \(result.stderr)")
        return result.stdout.split(separator: "\n").map { String($0.split(separator: "\t", maxSplits: 1)[0]) }.sorted()
    }

    @Test func fishCompletesFromItsScript() throws {
        let path = try script("fish")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains("complete -c relctl -n '__relctl_command gate evaluate' -l platform -x -a 'ios android'"))
        guard let fish = ["/usr/bin/fish", "/bin/fish"].first(where: FileManager.default.isExecutableFile(atPath:)) else { return }
        let parse = try runProcess(fish, ["--no-execute", path])
        #expect(parse.status == 0, "fish -n: \(parse.stderr)")
        #expect(parse.stderr.isEmpty, "fish -n: \(parse.stderr)")
        #expect(try fishCompletions("relctl ", fish: fish) == (RelctlCLI.commands.map(\.name) + ["help"]).sorted())
        #expect(try fishCompletions("relctl gate ", fish: fish) == ["check", "evaluate", "keep-min", "plan", "publish", "pull", "raise-min", "set-latest", "status"])
        #expect(try fishCompletions("relctl release --c", fish: fish) == ["--config", "--confirm-major"])
        #expect(try fishCompletions("relctl gate evaluate 2.4.1 --platform ", fish: fish) == ["android", "ios"])
        #expect(try fishCompletions("relctl next --config rel", fish: fish) == ["release.json"])
        #expect(try fishCompletions("relctl completions ", fish: fish) == ["bash", "fish", "zsh"])
    }

    @Test func anUnknownShellIsAUsageError() {
        let result = relctl(["completions", "tcsh"], in: folder)
        #expect(result.code == 64)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("error: unknown shell 'tcsh'; give bash, zsh or fish\n"))
    }
}
