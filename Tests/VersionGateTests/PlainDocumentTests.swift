import Testing
import VersionGate

@Suite("GateDocument: a plain JSON document")
struct PlainDocumentTests {
    let reader = GateDocumentReader(format: .json)

    @Test("every field of the plain document")
    func everyField() throws {
        let config = try #require(try reader.config(from: GateFixtures.plainDocument(), for: .ios))
        #expect(config.configVersion == "47")
        #expect(config.minimumSupportedVersion?.text == "4.1.0")
        #expect(config.latestVersion?.text == "4.3.0")
        #expect(config.forceUpdateMessage == "This version can no longer sync. Update to continue.")
        #expect(config.updateAvailableMessage == "Fieldbook 4.3 is out: faster visit notes.")
        #expect(config.storeURL == "https://apps.apple.com/app/fieldbook/id1234567890")
        #expect(config.maintenance == false)
        #expect(config.features == ["photoAttachments": .on, "routeOptimiser": .off, "offlineQueueRewrite": .internal])
        #expect(config.notice == GateNotice(level: "warning", text: "Update the app to keep syncing visit notes"))
        #expect(config.maxAgeSeconds == 900)
    }

    @Test("per-platform values under platforms override the top level")
    func platformValuesOverride() throws {
        let android = try #require(try reader.config(from: GateFixtures.plainDocument(), for: .android))
        #expect(android.minimumSupportedVersion?.text == "4.0.2")
        #expect(android.latestVersion?.text == "4.3.1")
        #expect(android.storeURL == "https://play.google.com/store/apps/details?id=com.example.fieldbook")
        #expect(android.features["photoAttachments"] == .on)  // not overridden
        let document = try reader.read(GateFixtures.plainDocument())
        #expect(document.conditionNames == ["android"])
    }

    @Test("the seed's walk-through: an old build is gated, a current one runs")
    func seedWalkThrough() throws {
        let config = try reader.config(from: GateFixtures.plainDocument(), for: .ios)
        #expect(GateLadder.evaluate(installed: "4.0.9", config: config).status == .blocked)
        #expect(GateLadder.evaluate(installed: "4.10.0", config: config).status == .ok)
        #expect(GateLadder.evaluate(installed: "4.2.0", config: config).status == .updateAvailable)
    }

    @Test("key names are configurable")
    func keyNamesConfigurable() throws {
        let keys = GateKeys(format: .json, overrides: [.minimumSupportedVersion: "minimumBuildName", .platforms: "perPlatform"])
        let reader = GateDocumentReader(format: .json, keys: keys)
        let text = #"{"minimumBuildName": "3.0", "perPlatform": {"ios": {"minimumBuildName": "3.1"}}}"#
        #expect(try reader.config(from: text, for: .ios)?.minimumSupportedVersion?.text == "3.1")
        #expect(try reader.config(from: text, for: .android)?.minimumSupportedVersion?.text == "3.0")
    }

    @Test("a null document is read as run with defaults")
    func nullDocument() throws {
        let document = try reader.read(" null\n")
        #expect(document.isNull)
        #expect(try document.config(for: .ios) == nil)
        #expect(try GateDocumentReader(format: .firebase).read("null").isNull)
    }

    @Test("lenient types: a version as a number, maintenance as a string, a notice as plain text")
    func lenientTypes() throws {
        let text = #"{"minimumSupportedVersion": 4.1, "maintenance": "true", "notice": "Back soon", "configVersion": "a1"}"#
        let config = try #require(try reader.config(from: text, for: nil))
        #expect(config.minimumSupportedVersion == "4.1.0")
        #expect(config.maintenance)
        #expect(config.notice == GateNotice(level: "info", text: "Back soon"))
        #expect(config.configVersion == "a1")
    }

    @Test("an empty string or null is no value")
    func emptyIsNoValue() throws {
        let text = #"{"minimumSupportedVersion": "", "latestVersion": null, "forceUpdateMessage": "", "notice": null}"#
        let config = try #require(try reader.config(from: text, for: nil))
        #expect(config == GateConfig())
    }

    @Test("a feature state the library does not know leaves the switch to the build default")
    func unknownFeatureStateIsSkipped() throws {
        let text = #"{"features": {"a": "beta", "b": "ON", "c": true}}"#
        let config = try reader.config(from: text, for: nil)
        #expect(config?.features == ["b": .on])
        #expect(FeatureSwitches.isEnabled("a", in: config, buildDefault: true, isInternalUser: false))
    }

    @Test("values of the wrong type are errors naming the key", arguments: [
        (#"{"minimumSupportedVersion": true}"#, #""minimumSupportedVersion": expected a version string, found a boolean"#),
        (#"{"maxAgeSeconds": -5}"#, #""maxAgeSeconds": expected a whole number of seconds, found -5"#),
        (#"{"maxAgeSeconds": 1.5}"#, #""maxAgeSeconds": expected a whole number of seconds, found 1.5"#),
        (#"{"features": ["a"]}"#, #""features": expected an object of "on", "off" or "internal", found an array"#),
        (#"{"notice": {"level": "info"}}"#, #""notice": expected a string "text""#),
        (#"{"maintenance": 1}"#, #""maintenance": expected a boolean, found a number"#),
        (#"{"iosStoreUrl": {}}"#, #""iosStoreUrl": expected a string, found an object"#),
    ])
    func wrongTypesAreErrors(_ text: String, _ message: String) {
        #expect(throws: GateDocumentError(message)) { try reader.config(from: text, for: .ios) }
    }

    @Test("platforms must hold objects")
    func platformsMustBeObjects() {
        #expect(throws: GateDocumentError(#""platforms": expected an object, found an array"#)) {
            try reader.read(#"{"platforms": []}"#)
        }
        #expect(throws: GateDocumentError(#""platforms"."ios": expected an object, found a string"#)) {
            try reader.read(#"{"platforms": {"ios": "4.0"}}"#)
        }
    }
}
