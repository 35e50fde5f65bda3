import Testing
@testable import RelctlCLI

@Suite struct GoldenTranscriptTests {
    @Test func compactJSONIsIndentedAndKeepsStringsAsTheyAre() {
        let compact = #"{"a":[1,{"b":"x,y:{[\"]}"}],"e":{},"f":[],"g":null}"#
        #expect(indentedJSON(compact) == """
            {
              "a": [
                1,
                {
                  "b": "x,y:{[\\"]}"
                }
              ],
              "e": {},
              "f": [],
              "g": null
            }
            """)
    }

    @Test(arguments: [#"{"a": 1}"#, "{\"a\":1}\n", #"{"a":1"#, #"{"a":1}}"#, #"{"a":"1}"#])
    func textThatIsNotCompactJSONIsNotIndented(_ text: String) {
        #expect(indentedJSON(text) == nil)
    }

    @Test func aTranscriptSaysWhereAStreamHasNoFinalNewline() {
        let result = CLIResult(code: 1, stdout: "1.2.0", stderr: "error: at /tmp/x/app.json\n")
        #expect(GoldenTranscript(["next", "--repo", "a b"], result, placeholders: [("/tmp/x", "<repo>")]).rendered == """
            $ relctl next --repo 'a b'
            exit status: 1
            --- stdout
            1.2.0
            [no newline at end]
            --- stderr
            error: at <repo>/app.json

            """)
    }

    @Test func oneLineOfJSONIsShownIndented() {
        let result = CLIResult(code: 0, stdout: "{\"a\":[]}\n", stderr: "")
        #expect(GoldenTranscript(["x"], result).rendered == """
            $ relctl x
            exit status: 0
            --- stdout (one line of JSON, shown indented)
            {
              "a": []
            }
            --- stderr (empty)

            """)
    }
}
