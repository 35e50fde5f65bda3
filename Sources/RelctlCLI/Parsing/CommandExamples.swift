/// The examples each command's help ends with: a command line and what it does, each one a command that works as
/// written in a repository set up as the README's quick start leaves it (`CommandExamplesTests` runs the ones that
/// read or plan on an app).
enum CommandExamples {
    static func examples(for command: String) -> [(command: String, does: String)] {
        switch command {
        case "next": return [
            ("relctl next", "Print the next version (nothing when no release is due, the reason on stderr)."),
            ("relctl next --prerelease beta", "The next beta: 1.4.0-beta.3 after 1.4.0-beta.2."),
            ("relctl next --json", "Version, bump, base tag and commits as one JSON object."),
        ]
        case "release": return [
            ("relctl release --dry-run", "Show the version, each file's diff, the changelog and the tag; change nothing."),
            ("relctl release --push", "Release and push the commit and the tag to origin."),
            ("relctl release --confirm-major --push", "Make a major release that stopped with exit 3 (after the review it asks for)."),
            ("relctl release --prerelease rc --push", "A release candidate: X.Y.Z-rc.N, iOS files with a higher build number."),
        ]
        case "release-pr": return [
            ("relctl release-pr --dry-run", "Show the release pull request's title and body; push and change nothing."),
            ("relctl release-pr", "Create or update the release pull request (GitHub) or merge request (GitLab) of the next release."),
        ]
        case "publish-release": return [
            ("relctl publish-release v1.3.0", "Create (or update) the GitHub or GitLab release of v1.3.0 from its changelog section."),
        ]
        case "changelog": return [
            ("relctl changelog", "The changelog section the next release would write."),
            ("relctl changelog --unreleased --json", "The same, for a script."),
        ]
        case "notes": return [
            ("relctl notes", "The store release notes the next release would write, each file with its character count."),
            ("relctl notes --store android", "Only Google Play's changelogs/<versionCode>.txt (500 characters at most)."),
        ]
        case "status": return [
            ("relctl status", "Last release, next version, a pending major-release decision, an interrupted release."),
        ]
        case "init": return [
            ("relctl init", "Detect the version files and write .relctl.json (then commit it)."),
            ("relctl init --repo apps/mobile", "The same for the repository holding apps/mobile."),
        ]
        case "current": return [
            ("relctl current", "Each configured file's version and build numbers; exit 2 when they disagree."),
            ("relctl current --json", "The same as JSON."),
        ]
        case "sync": return [
            ("relctl sync 1.4.0 --dry-run", "The diff of writing 1.4.0 and the next build numbers to every file."),
            ("relctl sync 1.4.0 --build 120", "Write 1.4.0 with build number 120 for both stores."),
        ]
        case "adopt": return [
            ("relctl adopt --dry-run", "The tag adopt would make for the version the files hold (an app already in the stores)."),
            ("relctl adopt", "Tag it as the last release."),
        ]
        case "gate": return [
            ("relctl gate check", "Validate the gate document before it is deployed."),
            ("relctl gate raise-min 3.0.0 --confirm-live", "Raise the floor once 3.0.0 is live in the stores."),
        ]
        case "gate check": return [
            ("relctl gate check", "Validate the gate document; exit 2 with one line per problem."),
        ]
        case "gate evaluate": return [
            ("relctl gate evaluate 2.9.0 --platform ios", "What an iPhone on 2.9.0 sees: blocked, update available or ok."),
        ]
        case "gate plan": return [
            ("relctl gate plan --min 3.0.0", "Every released version's verdict today and with the floor at 3.0.0."),
        ]
        case "gate raise-min": return [
            ("relctl gate raise-min 3.0.0 --confirm-live --dry-run", "The diff and commit message, changing nothing."),
            ("relctl gate raise-min 3.0.0 --confirm-live", "Raise min_supported_version to 3.0.0 in one commit."),
        ]
        case "gate status": return [
            ("relctl gate status --live", "The document's values beside each store's live version and rollout."),
        ]
        case "gate pull": return [
            ("relctl gate pull --dry-run", "What changed in the live Remote Config template, writing nothing."),
            ("relctl gate pull", "Write the live template into the gate document, then commit it."),
        ]
        case "gate publish": return [
            ("relctl gate publish --dry-run", "Read and validate; publish nothing."),
            ("relctl gate publish --onto-live", "Apply only the minimum and latest onto the live template."),
        ]
        case "gate keep-min": return [
            ("relctl gate keep-min --reason \"2.x keeps working\"", "Resolve the pending major release without raising the floor."),
        ]
        case "gate set-latest": return [
            ("relctl gate set-latest 3.1.0", "Nudge users below 3.1.0 to update, in one commit."),
        ]
        case "lint": return [
            ("relctl lint", "Check the commits the next release would read."),
            ("relctl lint --range origin/main..HEAD", "Check a branch's commits before a pull request."),
            ("relctl lint --title \"feat(auth): passkeys\"", "Check a pull-request title (the squash commit's header)."),
            ("relctl lint --message-file .git/COMMIT_EDITMSG", "Check a message file, as the commit-msg hook does."),
        ]
        case "hooks": return [
            ("relctl hooks install", "Install the commit-msg hook that runs relctl lint on every commit."),
            ("relctl hooks uninstall", "Remove it."),
        ]
        case "hooks install": return [
            ("relctl hooks install", "Write the commit-msg hook where git runs hooks from (core.hooksPath, husky)."),
            ("relctl hooks install --force", "Replace a commit-msg hook relctl did not write."),
        ]
        case "hooks uninstall": return [
            ("relctl hooks uninstall", "Remove relctl's commit-msg hook."),
        ]
        case "completions": return [
            ("source <(relctl completions bash)", "Completions in the current bash."),
            ("relctl completions fish | source", "Completions in the current fish."),
        ]
        default: return []
        }
    }

    /// The EXAMPLES section of a command's help; empty when it has none.
    static func section(for command: String) -> String {
        let examples = examples(for: command)
        guard !examples.isEmpty else { return "" }
        var text = "EXAMPLES:\n"
        for example in examples { text += "  \(example.command)\n      \(example.does)\n" }
        return text
    }
}
