import Foundation
import Testing
import RelctlTestSupport
@testable import RelctlCLI

@Suite("Templates in the config: changelog.template and storeNotes.template")
struct TemplateConfigTests {
    @Test func changelogTemplateShapesTheSectionTheReleaseWrites() throws {
        let repo = try TestRepository.released("1.0.0", then: [])
        try repo.git(["config", "user.name", "Release Bot"])
        try repo.git(["config", "user.email", "bot@example.com"])
        try repo.write(".relctl.json", #"{"changelog": {"template": "templates/changelog.mustache"}}"# + "\n")
        try repo.write("templates/changelog.mustache", """
            ## {{version}} — {{date}}
            {{#groups}}

            #### {{title}}
            {{#commits}}
            - {{description}}{{#scope}} [{{.}}]{{/scope}}
            {{/commits}}
            {{/groups}}
            {{^groups}}
            Nothing for users.
            {{/groups}}


            """)
        try repo.commitAll("chore: changelog template")
        try repo.commit("feat(ui): dark mode")
        try repo.commit("fix: größere Schrift")
        let env = ["SOURCE_DATE_EPOCH": "1764460800"]
        let expected = "## 1.1.0 — 2025-11-30\n\n#### Features\n- dark mode [ui]\n\n#### Bug fixes\n- größere Schrift\n\n"
        let preview = relctl(["changelog"], in: repo.path, environment: env)
        #expect(preview.code == 0, "\(preview.stderr)")
        #expect(preview.stdout == expected)
        #expect(relctl(["release"], in: repo.path, environment: env).code == 0)
        #expect(try repo.read("CHANGELOG.md") == "# Changelog\n\n" + expected)
    }

    @Test func storeNotesTemplate() throws {
        let repo = try TestRepository.released("1.0.0", then: [])
        try repo.write(".relctl.json", #"{"storeNotes": {"android": false, "template": "notes.mustache"}}"# + "\n")
        try repo.write("notes.mustache", "Version {{version}}:\n{{#entries}}\n* {{text}} ({{type}})\n{{/entries}}\n{{#more}}\n{{more}}\n{{/more}}\n")
        try repo.commitAll("chore: notes template")
        try repo.commit("feat: dark mode")
        let result = relctl(["notes"], in: repo.path)
        #expect(result.code == 0, "\(result.stderr)")
        #expect(result.stdout == "==> fastlane/metadata/en-US/release_notes.txt (App Store, en-US, 34/4000 characters) <==\nVersion 1.1.0:\n* Dark mode (feat)\n")
    }

    @Test(arguments: [
        ("{{#groups}}\n{{title}}\n", "templates/c.mustache:1:1: section {{#groups}} is never closed; add {{/groups}} where it ends"),
        ("## {{version}}\n{{#groups}}{{/commits}}", "templates/c.mustache:2:12: {{/commits}} does not close {{#groups}} (opened at 2:1); close that one first with {{/groups}}"),
        ("{{> header}}", "templates/c.mustache:1:1: partials ({{> header}}) are not supported; put the text in the template itself"),
    ])
    func templateErrorsAreOneLineWithFileLineColumn(template: String, message: String) throws {
        let repo = try TestRepository.released("1.0.0", then: ["feat: x"])
        try repo.write(".relctl.json", "{\n  \"changelog\": {\"template\": \"templates/c.mustache\"}\n}\n")
        try repo.write("templates/c.mustache", template)
        let before = try repo.snapshot()
        let result = relctl(["release"], in: repo.path)
        #expect(result.code == 1)
        #expect(result.stderr == "error: \(message)\n")
        #expect(try repo.snapshot() == before)
    }

    @Test func aMissingTemplateSaysWhatToDo() throws {
        let repo = try TestRepository.released("1.0.0", then: ["feat: x"])
        try repo.write(".relctl.json", "{\n  \"storeNotes\": {\n    \"template\": \"nope.mustache\"\n  }\n}\n")
        let result = relctl(["notes"], in: repo.path)
        #expect(result.code == 1)
        #expect(result.stderr == "error: .relctl.json:3: 'storeNotes.template' \"nope.mustache\" does not exist or cannot be read; create it (the README's \"Templates\" gives the default to start from) or remove 'storeNotes.template'\n")
    }
}
