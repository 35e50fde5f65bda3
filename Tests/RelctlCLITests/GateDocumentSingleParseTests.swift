import Testing
import RelctlCore
import RelctlJSON
import VersionGate
@testable import RelctlCLI

/// The gate document is parsed once, by RelctlCore's parser (positions), and the app's library reads the values of
/// that tree (`GateDocumentReader.read(root:)`) instead of parsing the same text a second time. These tests hold the
/// single-parse path to what the library reads from the text on its own, and keep every message of the old two-parse
/// load (recorded before the change).
@Suite("the gate document is parsed once")
struct GateDocumentSingleParseTests {
    static let readers: [(name: String, input: String, reader: GateDocumentReader)] = [
        ("plain", "gate.json", GateDocumentReader(format: .json)),
        ("firebase", "remoteconfig.template.json", GateDocumentReader(format: .firebase)),
    ]

    @Test func theTreeReadsAsTheLibraryReadsTheText() throws {
        for entry in Self.readers {
            let text = try GateApp.input(entry.input)
            let fromText = try entry.reader.read(text)
            let fromTree = try entry.reader.read(root: try GateJSON(JSONDocument.parse(text, allowJSON5: false)))
            #expect(fromTree == fromText, "\(entry.name)")
            #expect(fromTree.root == (try GateJSON.parse(text)), "\(entry.name)")
            #expect(fromTree.parameterNames.count > 5, "\(entry.name)")
        }
    }

    @Test func valuesOfEveryKindConvertAsTheLibraryParsesThem() throws {
        let text = #"{"a": [1, -2.5e3, 0, true, false, null, "\u00e9\ud83d\ude00\n\t\"\\/"], "b": {}, "c": [], "d": {"e": {"f": "g"}}}"#
        let tree = try JSONDocument.parse(text, allowJSON5: false)
        #expect(try GateJSON(tree) == (try GateJSON.parse(text)))
        #expect(try GateJSON(tree).serialized == (try GateJSON.parse(text)).serialized)
    }

    /// A document whose object holds `levels - 1` nested arrays, one opening bracket a line from line 3 (level L is on
    /// line L + 1).
    static func nested(_ levels: Int) -> String {
        let arrays = levels - 1
        return "{\n\"deep\":\n" + String(repeating: "[\n", count: arrays) + String(repeating: "]", count: arrays) + "\n}\n"
    }

    /// The library refuses nesting deeper than 100 levels while parsing (relctl's own reading allows 512): the
    /// tree's conversion refuses it too, with the library's message, at the line of the first level too deep (the
    /// parser also names its column).
    @Test(arguments: [100, 101, 150, 512])
    func nestingIsLimitedAsTheLibraryLimitsIt(_ levels: Int) throws {
        let text = Self.nested(levels)
        let tree = try JSONDocument.parse(text, allowJSON5: false)
        let fromText = Result { () throws(GateDocumentError) in try GateJSON.parse(text) }
        let fromTree = Result { () throws(GateDocumentError) in try GateJSON(tree) }
        if levels > 100 {
            #expect(fromTree == .failure(GateDocumentError("nesting deeper than 100 levels", line: 102)))
            #expect(fromText == .failure(GateDocumentError("nesting deeper than 100 levels", line: 102, column: 1)))
        } else {
            #expect(fromTree == fromText)
            #expect(try fromTree.get() == GateJSON.parse(text))
        }
    }

    /// Whole stderr of `relctl gate check`, recorded with the two-parse load before the change.
    @Test(arguments: [
        (101, "error: config/gate.json:102: nesting deeper than 100 levels (the app fails open on a document it cannot read, so the gate would do nothing)\ngate check: 1 problem in config/gate.json; the app fails open, so fix it before deploying the document\n"),
        (600, "error: config/gate.json:514: not valid JSON: nesting deeper than 512 levels (column 1; the app fails open on a document it cannot read, so the gate would do nothing)\ngate check: 1 problem in config/gate.json; the app fails open, so fix it before deploying the document\n"),
    ])
    func gateCheckSaysWhatItSaidBefore(_ levels: Int, _ stderr: String) throws {
        let repo = try GateApp.plain(document: Self.nested(levels), majorPending: false)
        let before = try repo.snapshot()
        let result = relctl(["gate", "check"], in: repo.path)
        #expect(result.code == 2)
        #expect(result.stdout == "")
        #expect(result.stderr == stderr)
        #expect(try repo.snapshot() == before)
    }
}
