import Testing
@testable import RelctlCore

/// The Mustache spec cases relctl's template language adopts (interpolation, sections, inverted sections, comments,
/// standalone lines, dotted names), written anew as relctl's own test data: a name, the template, the data and the
/// expected output.
private struct SpecCase: CustomTestStringConvertible, Sendable {
    let name: String
    let template: String
    let data: TemplateValue
    let expected: String
    var testDescription: String { name }
}

private func object(_ members: [String: TemplateValue]) -> TemplateValue { .object(members) }
private func s(_ text: String) -> TemplateValue { .string(text) }

/// Built anew for each use rather than held in a global: a global of TemplateValue (an enum whose payloads
/// LeakSanitizer cannot follow through their tag bits) is reported as leaked under `make asan`.
private func makeSpecCases() -> [SpecCase] { [
    // Interpolation
    SpecCase(name: "no tags", template: "Release day!\n", data: object([:]), expected: "Release day!\n"),
    SpecCase(name: "a variable", template: "v{{version}} is out", data: object(["version": s("1.3.0")]), expected: "v1.3.0 is out"),
    SpecCase(name: "no HTML escaping (Markdown output)", template: "{{x}}|{{{x}}}|{{& x}}", data: object(["x": s("a < b & \"c\"")]),
             expected: "a < b & \"c\"|a < b & \"c\"|a < b & \"c\""),
    SpecCase(name: "a missing name is empty", template: "[{{nothing}}]", data: object([:]), expected: "[]"),
    SpecCase(name: "spaces inside the tag", template: "{{  version  }}", data: object(["version": s("2.0.0")]), expected: "2.0.0"),
    SpecCase(name: "booleans print", template: "{{yes}} {{no}}", data: object(["yes": .bool(true), "no": .bool(false)]), expected: "true false"),
    SpecCase(name: "dotted names", template: "{{a.b.c}}", data: object(["a": object(["b": object(["c": s("deep")])])]), expected: "deep"),
    SpecCase(name: "a dotted name broken half-way is empty", template: "[{{a.x.c}}]", data: object(["a": object(["b": s("1")])]), expected: "[]"),
    SpecCase(name: "the first part is looked up outwards, the rest inside it",
             template: "{{#item}}{{a.b}}{{/item}}", data: object(["a": object(["b": s("outer")]), "item": object(["z": s("1")])]),
             expected: "outer"),
    SpecCase(name: "non-ASCII text and values", template: "Größe: {{x}} 🎉", data: object(["x": s("日本語")]), expected: "Größe: 日本語 🎉"),
    SpecCase(name: "a standalone variable line keeps its line", template: "  {{x}}\n", data: object(["x": s("v")]), expected: "  v\n"),

    // Sections
    SpecCase(name: "true renders", template: "<{{#on}}yes{{/on}}>", data: object(["on": .bool(true)]), expected: "<yes>"),
    SpecCase(name: "false does not", template: "<{{#on}}yes{{/on}}>", data: object(["on": .bool(false)]), expected: "<>"),
    SpecCase(name: "null and missing do not", template: "<{{#a}}x{{/a}}{{#b}}y{{/b}}>", data: object(["a": .null]), expected: "<>"),
    SpecCase(name: "an empty string does not", template: "<{{#scope}}**{{scope}}:** {{/scope}}text>", data: object(["scope": s("")]), expected: "<text>"),
    SpecCase(name: "a list renders once per item", template: "{{#list}}<{{n}}>{{/list}}",
             data: object(["list": .list([object(["n": s("1")]), object(["n": s("2")]), object(["n": s("3")])])]), expected: "<1><2><3>"),
    SpecCase(name: "an empty list does not", template: "<{{#list}}x{{/list}}>", data: object(["list": .list([])]), expected: "<>"),
    SpecCase(name: "the implicit iterator", template: "{{#list}}({{.}}){{/list}}", data: object(["list": .list([s("a"), s("b")])]), expected: "(a)(b)"),
    SpecCase(name: "an object becomes the context", template: "{{#commit}}{{sha}} {{version}}{{/commit}}",
             data: object(["version": s("1.0.0"), "commit": object(["sha": s("abc")])]), expected: "abc 1.0.0"),
    SpecCase(name: "nested lists see outer names", template: "{{#groups}}{{title}}:{{#commits}} {{d}}@{{version}}{{/commits}};{{/groups}}",
             data: object(["version": s("2"), "groups": .list([
                 object(["title": s("F"), "commits": .list([object(["d": s("x")]), object(["d": s("y")])])]),
                 object(["title": s("B"), "commits": .list([object(["d": s("z")])])]),
             ])]), expected: "F: x@2 y@2;B: z@2;"),
    SpecCase(name: "dotted section names", template: "{{#a.b}}in{{/a.b}}", data: object(["a": object(["b": .bool(true)])]), expected: "in"),
    SpecCase(name: "a string section renders with it as the context", template: "{{#s}}[{{.}}]{{/s}}", data: object(["s": s("x")]), expected: "[x]"),

    // Inverted sections
    SpecCase(name: "inverted on false", template: "<{{^on}}no{{/on}}>", data: object(["on": .bool(false)]), expected: "<no>"),
    SpecCase(name: "inverted on true", template: "<{{^on}}no{{/on}}>", data: object(["on": .bool(true)]), expected: "<>"),
    SpecCase(name: "inverted on an empty list", template: "{{^list}}No user-facing changes.{{/list}}", data: object(["list": .list([])]),
             expected: "No user-facing changes."),
    SpecCase(name: "inverted on a missing name", template: "{{^x}}none{{/x}}", data: object([:]), expected: "none"),

    // Comments
    SpecCase(name: "a comment writes nothing", template: "a{{! a comment }}b", data: object([:]), expected: "ab"),
    SpecCase(name: "a comment may span lines", template: "a{{! one\ntwo }}b", data: object([:]), expected: "ab"),
    SpecCase(name: "a standalone comment line goes", template: "a\n  {{! note }}\nb\n", data: object([:]), expected: "a\nb\n"),
    SpecCase(name: "an inline comment keeps its line", template: "a {{! note }} b\n", data: object([:]), expected: "a  b\n"),

    // Standalone lines
    SpecCase(name: "standalone section lines go", template: "| a\n{{#on}}\n| b\n{{/on}}\n| c\n", data: object(["on": .bool(true)]),
             expected: "| a\n| b\n| c\n"),
    SpecCase(name: "indented standalone lines go", template: "a\n  {{#on}}\nb\n  {{/on}}\nc\n", data: object(["on": .bool(true)]),
             expected: "a\nb\nc\n"),
    SpecCase(name: "standalone with CRLF", template: "a\r\n{{#on}}\r\nb\r\n{{/on}}\r\nc", data: object(["on": .bool(true)]),
             expected: "a\r\nb\r\nc"),
    SpecCase(name: "standalone at the start", template: "{{#on}}\nx\n{{/on}}\n", data: object(["on": .bool(true)]), expected: "x\n"),
    SpecCase(name: "standalone at the end without a line break", template: "x\n{{#on}}\ny\n{{/on}}", data: object(["on": .bool(true)]),
             expected: "x\ny\n"),
    SpecCase(name: "standalone inverted lines go", template: "a\n{{^on}}\nb\n{{/on}}\nc\n", data: object(["on": .bool(false)]),
             expected: "a\nb\nc\n"),
    SpecCase(name: "two tags on a line are not standalone", template: "{{#on}}x{{/on}}\n", data: object(["on": .bool(true)]), expected: "x\n"),
    SpecCase(name: "text beside a tag is not standalone", template: " x {{#on}}\ny\n{{/on}}\n", data: object(["on": .bool(true)]),
             expected: " x \ny\n"),
    SpecCase(name: "a list of lines", template: "{{#list}}\n- {{.}}\n{{/list}}\n", data: object(["list": .list([s("a"), s("b")])]),
             expected: "- a\n- b\n"),
] }

@Suite("Template: the Mustache cases relctl adopts")
struct TemplateSpecTests {
    @Test func theCaseNamesAreUnique() {
        let names = makeSpecCases().map(\.name)
        #expect(Set(names).count == names.count)
        #expect(names.count >= 39)
    }

    @Test(arguments: makeSpecCases().map(\.name))
    func specCase(_ name: String) throws {
        let spec = try #require(makeSpecCases().first { $0.name == name })
        #expect(try Template(spec.template).render(spec.data) == spec.expected)
    }
}

@Suite("Template errors")
struct TemplateProblemTests {
    @Test(arguments: [
        ("a\n  {{#groups}}\nb\n", 2, 3, "section {{#groups}} is never closed; add {{/groups}} where it ends"),
        ("{{#a}}{{#b}}x{{/a}}{{/b}}", 1, 14, "{{/a}} does not close {{#b}} (opened at 1:7); close that one first with {{/b}}"),
        ("x\n{{/a}}", 2, 1, "{{/a}} closes no section; remove it, or open the section with {{#a}}"),
        ("ab {{version", 1, 4, "unclosed tag '{{version'; end it with }}"),
        ("{{{x}}", 1, 1, "unclosed tag '{{{x}}'; end it with }}}"),
        ("{{> header}}", 1, 1, "partials ({{> header}}) are not supported; put the text in the template itself"),
        ("{{=<% %>=}}", 1, 1, "changing the delimiters ({{=…=}}) is not supported; keep {{ and }}"),
        ("é {{}}", 1, 3, "empty tag; write a name inside it, like {{version}}"),
        ("{{a b}}", 1, 1, "'a b' is not a name; use letters, digits, '_' and '-', with dots between parts (commit.scope) or '.' for the current item"),
        ("{{a..b}}", 1, 1, "'a..b' is not a name; use letters, digits, '_' and '-', with dots between parts (commit.scope) or '.' for the current item"),
    ])
    func error(template: String, line: Int, column: Int, message: String) {
        let location = DiagnosticLocation(path: "notes.mustache", line: line, column: column)
        #expect(throws: Problem(message, at: location)) { try Template(template, path: "notes.mustache") }
    }

    @Test func renderedWithThePathLineAndColumn() {
        let error = #expect(throws: Problem.self) { try Template("a\n  {{/b}}", path: "notes.mustache") }
        #expect(error?.rendered() == "notes.mustache:2:3: {{/b}} closes no section; remove it, or open the section with {{#b}}")
    }
}
