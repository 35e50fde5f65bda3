import Testing
import RelctlCore
import RelctlJSON
import RelctlFiles
import VersionGate
@testable import RelctlCLI

@Suite("GateDocumentEditor")
struct GateDocumentEditorTests {
    func layout(_ text: String) throws -> GateDocumentLayout {
        GateDocumentLayout(format: .json, tree: try JSONDocument.parse(text, allowJSON5: false), platformsKey: "platforms")
    }

    @Test func aStringStaysAStringAndANumberStaysANumberWhenItCan() throws {
        let text = "{\"minimumSupportedVersion\": 4.1, \"latestVersion\": \"4.3\"}"
        let document = try layout(text)
        let minimum = try #require(document.site(of: "minimumSupportedVersion", condition: nil))
        let latest = try #require(document.site(of: "latestVersion", condition: nil))
        #expect(applying([try #require(GateDocumentEditor.replace(minimum, with: "4.2"))], to: text) == "{\"minimumSupportedVersion\": 4.2, \"latestVersion\": \"4.3\"}")
        #expect(applying([try #require(GateDocumentEditor.replace(minimum, with: "4.2.0"))], to: text) == "{\"minimumSupportedVersion\": \"4.2.0\", \"latestVersion\": \"4.3\"}")
        #expect(applying([try #require(GateDocumentEditor.replace(latest, with: "4.4"))], to: text) == "{\"minimumSupportedVersion\": 4.1, \"latestVersion\": \"4.4\"}")
    }

    @Test func everyDocumentVersionMovesOnInItsOwnType() throws {
        let text = "{\r\n  \"configVersion\": \"47\",\r\n  \"platforms\": {\"ios\": {\"configVersion\": 9}, \"android\": {\"configVersion\": \"beta\"}}\r\n}"
        let document = try layout(text)
        let bump = GateDocumentEditor.bumpVersions(document.sites(of: "configVersion"))
        #expect(applying(bump.edits, to: text) == "{\r\n  \"configVersion\": \"48\",\r\n  \"platforms\": {\"ios\": {\"configVersion\": 10}, \"android\": {\"configVersion\": \"beta\"}}\r\n}")
        #expect(bump.changes.map(\.new) == ["48", "10"])
        #expect(bump.skipped.map(\.condition) == ["android"])
    }

    @Test(arguments: [("0", true), ("-1.5e+3", true), ("4.1", true), ("4.1.0", false), ("01", false), ("1.", false), ("", false), ("1e", false)])
    func jsonNumbers(_ text: String, _ isNumber: Bool) {
        #expect(GateDocumentEditor.isJSONNumber(text) == isNumber)
    }

    @Test func aFirebaseValueIsFoundInAGroupAndUnderItsCondition() throws {
        let text = """
            {"conditions": [{"name": "ios", "expression": "device.os == 'ios'"}],
             "parameterGroups": {"gate": {"parameters": {"v_min": {"defaultValue": {"value": "1.0"}, "conditionalValues": {"ios": {"value": "1.1"}}}}}},
             "parameters": {"v_latest": {"defaultValue": {"useInAppDefault": true}}}}
            """
        let document = GateDocumentLayout(format: .firebase, tree: try JSONDocument.parse(text, allowJSON5: false), platformsKey: nil)
        #expect(document.sites(of: "v_min").map(\.condition) == [nil, "ios"])
        #expect(document.site(of: "v_min", condition: "ios")?.node?.stringValue == "1.1")
        #expect(document.site(of: "v_min", condition: "ios")?.label == "\"v_min\" (condition ios)")
        #expect(document.site(of: "v_latest", condition: nil)?.node == nil)
        #expect(document.entries.map(\.key) == ["v_latest", "v_min"])
        let reader = GateDocumentReader(format: .firebase)
        #expect(document.site(of: "v_min", for: .android, reader: reader)?.condition == nil)
        #expect(document.site(of: "v_min", for: .ios, reader: reader)?.condition == "ios")
    }
}
