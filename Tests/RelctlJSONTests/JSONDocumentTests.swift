import Testing
import RelctlJSON

@Suite struct JSONDocumentTests {
    @Test func parsesScalarsAndKeepsNumberText() throws {
        let doc = try JSONDocument.parse(#"{"a": "x", "n": 1.50, "e": -2E+3, "t": true, "f": false, "z": null}"#, allowJSON5: false)
        #expect(doc.objectKeys == ["a", "n", "e", "t", "f", "z"])
        #expect(doc.member("a")?.stringValue == "x")
        #expect(doc.member("n")?.numberText == "1.50")
        #expect(doc.member("e")?.numberText == "-2E+3")
        #expect(doc.member("t")?.boolValue == true)
        #expect(doc.member("f")?.boolValue == false)
        #expect(doc.member("z")?.isNull == true)
        #expect(doc.member("missing") == nil)
        #expect(doc.member("n")?.typeName == "number")
        #expect(doc.member("t")?.typeName == "boolean")
        #expect(doc.typeName == "object")
    }

    @Test func rangesAreUTF8ByteOffsetsOfTheToken() throws {
        let text = "{\n  \"é\": \"ü\",\n  \"v\": \"1.2.3\"\n}"
        let doc = try JSONDocument.parse(text, allowJSON5: false)
        let v = try #require(doc.member("v"))
        let bytes = Array(text.utf8)
        #expect(String(decoding: bytes[v.range], as: UTF8.self) == "\"1.2.3\"")
        #expect(v.line == 3)
        #expect(doc.range == 0..<bytes.count)
        let member = try #require(doc.objectMembers?.first)
        #expect(String(decoding: bytes[member.keyRange], as: UTF8.self) == "\"é\"")
        #expect(member.keyLine == 2)
    }

    @Test func escapes() throws {
        let doc = try JSONDocument.parse(#"["a\"b\\c\/d\b\f\n\r\t", "\u0041\u00e9\u4e2d", "\ud83d\ude00"]"#, allowJSON5: false)
        let items = try #require(doc.arrayValue)
        #expect(items[0].stringValue == "a\"b\\c/d\u{08}\u{0C}\n\r\t")
        #expect(items[1].stringValue == "Aé中")
        #expect(items[2].stringValue == "😀")
    }

    @Test(arguments: [
        (#"["\ud83d"]"#, "high surrogate", 3),
        (#"["\ude00"]"#, "lone low surrogate", 3),
        (#"["\u12G4"]"#, "4 hex digits", 7),
        (#"["\x41"]"#, "invalid escape", 3),
    ])
    func badEscapes(text: String, fragment: String, column: Int) {
        #expect {
            _ = try JSONDocument.parse(text, allowJSON5: false)
        } throws: { error in
            guard let e = error as? JSONParseError else { return false }
            return e.message.contains(fragment) && e.line == 1 && e.column == column
        }
    }

    @Test func nestingAndPath() throws {
        let text = """
        { "expo": { "version": "1.4.0", "ios": { "buildNumber": "57" },
          "android": { "versionCode": 57 }, "plugins": [["a", {"b": [1, [2, {}]]}]] } }
        """
        let doc = try JSONDocument.parse(text, allowJSON5: false)
        #expect(doc.path(["expo", "ios", "buildNumber"])?.stringValue == "57")
        #expect(doc.path(["expo", "android", "versionCode"])?.intValue == 57)
        #expect(doc.path(["expo", "android", "versionCode"])?.line == 2)
        #expect(doc.path(["expo", "nope", "x"]) == nil)
        let plugins = try #require(doc.path(["expo", "plugins"])?.arrayValue)
        #expect(plugins.count == 1)
        #expect(plugins[0].arrayValue?[1].member("b")?.arrayValue?[1].arrayValue?[1].objectKeys == [])
    }

    @Test(arguments: [
        ("{\n  \"a\": 1,\n  \"b\" 2\n}", 3, 7, "expected ':'"),
        ("{\n  \"a\": 1,\n}", 2, 9, "trailing comma"),
        ("[1,\n 2,\n]", 2, 3, "trailing comma"),
        ("{\"a\": tru}", 1, 7, "expected a value"),
        ("{\"a\": 01}", 1, 7, "leading zeros"),
        ("{\"a\": 1} x", 1, 10, "after the end"),
        ("{\"a\": \"x\n\"}", 1, 7, "unterminated string"),
        ("{\"a\": 1 // c\n}", 1, 9, "comments are not allowed"),
        ("{'a': 1}", 1, 2, "expected a string key"),
        ("", 1, 1, "empty document"),
        ("{\"a\": [1, 2}", 1, 12, "expected ',' or ']'"),
        ("{\"a\": 1", 1, 8, "unterminated object"),
        ("{\"é\": -}", 1, 8, "expected a digit"),
    ])
    func strictErrorsCarryLineAndColumn(text: String, line: Int, column: Int, fragment: String) {
        do {
            _ = try JSONDocument.parse(text, allowJSON5: false)
            Issue.record("expected an error for \(text)")
        } catch {
            #expect(error.line == line)
            #expect(error.column == column)
            #expect(error.message.contains(fragment), "\(error.message)")
            #expect(error.description.hasPrefix("line \(line), column \(column): "))
        }
    }

    @Test func duplicateKeysAreAnErrorInStrictMode() {
        do {
            _ = try JSONDocument.parse("{\n  \"tagPrefix\": \"v\",\n  \"tagPrefix\": \"w\"\n}", allowJSON5: false)
            Issue.record("expected a duplicate-key error")
        } catch {
            #expect(error.line == 3)
            #expect(error.message == "duplicate key \"tagPrefix\" (first defined at line 2)")
        }
    }

    @Test func json5AllowsCommentsTrailingCommasAndKeepsDuplicates() throws {
        let text = """
        // leading comment
        {
          /* block
             comment */ "expo": {
            "version": "1.0.0", // trailing
            name: 'single',
            "list": [1, 2,],
          },
          "expo": {"version": "2.0.0"},
        }
        """
        let doc = try JSONDocument.parse(text, allowJSON5: true)
        #expect(doc.members(named: "expo").count == 2)
        #expect(doc.path(["expo", "version"])?.stringValue == "2.0.0")  // last wins, as in JS
        let first = try #require(doc.members(named: "expo").first?.value)
        #expect(first.member("name")?.stringValue == "single")
        #expect(first.member("list")?.arrayValue?.count == 2)
        #expect(first.member("version")?.line == 5)
        #expect(throws: JSONParseError.self) { try JSONDocument.parse(text, allowJSON5: false) }
    }

    @Test func unterminatedBlockCommentIsReported() {
        do {
            _ = try JSONDocument.parse("{\n /* never closed\n}", allowJSON5: true)
            Issue.record("expected an error")
        } catch {
            #expect(error.line == 2)
            #expect(error.column == 2)
            #expect(error.message.contains("unterminated /* comment"))
        }
    }

    @Test func deepNestingIsRefusedNotCrashing() {
        let text = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
        #expect(throws: JSONParseError.self) { try JSONDocument.parse(text, allowJSON5: false) }
    }

    @Test func quoteRoundTrips() throws {
        let s = "a\"b\\c\n\u{01}é"
        let doc = try JSONDocument.parse(JSONDocument.quote(s), allowJSON5: false)
        #expect(doc.stringValue == s)
    }

    @Test func quoteEscapingControlsLeavesNoRawControlAndRoundTrips() throws {
        let s = "a\u{1B}[1m\u{7F}\u{9B}2J\u{85}é\t"
        let quoted = JSONDocument.quoteEscapingControls(s)
        #expect(quoted == #""a\u001b[1m\u007f\u009b2J\u0085é\t""#)
        #expect(try JSONDocument.parse(quoted, allowJSON5: false).stringValue == s)
        #expect(JSONDocument.quoteEscapingControls("plain é") == JSONDocument.quote("plain é"))
    }
}
