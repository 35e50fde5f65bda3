import Testing
import VersionGate

@Suite("GateJSON: the library's own JSON reader and writer")
struct GateJSONTests {
    @Test("reads every kind of value, keeping member order and number text")
    func readsValues() throws {
        let value = try GateJSON.parse(#" {"b": [1, -0.5, 2e3, true, false, null], "a": {"x": "y"}, "s": "\u00e9\ud83d\ude00\n\"/"} "#)
        #expect(value.members.map(\.key) == ["b", "a", "s"])
        #expect(value["b"] == .array([.number("1"), .number("-0.5"), .number("2e3"), .bool(true), .bool(false), .null]))
        #expect(value["a"]?["x"] == .string("y"))
        #expect(value["s"] == .string("é😀\n\"/"))
        #expect(value["missing"] == nil)
    }

    @Test("syntax errors name the line and column (the parser relctl uses)", arguments: [
        ("{\n  \"a\": 1,\n}", 2, 9, "trailing comma before '}' is not allowed in strict JSON"),
        ("{\"a\": 1 \"b\": 2}", 1, 9, "unexpected '\"': expected ',' or '}' in object"),
        ("", 1, 1, "empty document: expected a JSON value"),
        ("{\"a\": 01}", 1, 7, "invalid number: leading zeros are not allowed"),
        ("{\"a\": \"x\ny\"}", 1, 7, "unterminated string (line break inside a string)"),
        ("{\"a\": 1, \"a\": 2}", 1, 10, "duplicate key \"a\" (first defined at line 1)"),
        ("[1] [2]", 1, 5, "unexpected '[' after the end of the JSON value"),
        ("{\"a\": \"\\ud800\"}", 1, 8, "invalid \\u escape: high surrogate not followed by a low surrogate"),
        ("// comment\n{}", 1, 1, "comments are not allowed in strict JSON"),
        ("{\"a\": tru}", 1, 7, "unexpected 't': expected a value"),
        ("[\n\n\"open", 3, 1, "unterminated string"),
    ])
    func syntaxErrorsNameTheLine(_ text: String, _ line: Int, _ column: Int, _ message: String) {
        #expect(throws: GateDocumentError(message, line: line, column: column)) { try GateJSON.parse(text) }
    }

    @Test("nesting is limited instead of exhausting the stack")
    func nestingIsLimited() {
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        #expect(throws: GateDocumentError("nesting deeper than 100 levels", line: 1, column: 101)) { try GateJSON.parse(deep) }
        let fine = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
        #expect(throws: Never.self) { try GateJSON.parse(fine) }
    }

    @Test("a byte-order mark is skipped")
    func byteOrderMark() throws {
        #expect(try GateJSON.parse("\u{FEFF}{\"a\":1}")["a"] == .number("1"))
    }

    @Test("writing escapes what JSON requires and round-trips")
    func writesAndRoundTrips() throws {
        let value = GateJSON.object([
            ("text", .string("a\"b\\c\n\t\u{01}é")), ("n", .number("4.10")), ("list", .array([.bool(true), .null])),
        ])
        #expect(value.serialized == #"{"text":"a\"b\\c\n\t\u0001é","n":4.10,"list":[true,null]}"#)
        #expect(try GateJSON.parse(value.serialized) == value)
    }

    @Test("error descriptions start with the line")
    func errorDescription() {
        #expect(GateDocumentError("boom", line: 4).description == "line 4: boom")
        #expect(GateDocumentError("boom").description == "boom")
        #expect(GateDocumentError("boom", line: 4, column: 2).description == "line 4, column 2: boom")
    }
}
