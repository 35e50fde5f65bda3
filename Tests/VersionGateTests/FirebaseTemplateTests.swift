import Testing
import VersionGate

@Suite("GateDocument: a Firebase Remote Config template")
struct FirebaseTemplateTests {
    let reader = GateDocumentReader(format: .firebase)

    @Test("the default values, from top-level parameters and from parameter groups")
    func defaultValuesFromParametersAndGroups() throws {
        let config = try #require(try reader.config(from: GateFixtures.firebaseTemplate(), for: nil))
        #expect(config.minimumSupportedVersion == "2.3.0")
        #expect(config.latestVersion == "2.5.0")  // in the "versioning" group, one level deeper
        #expect(config.forceUpdateMessage == "A mandatory update is required to keep using Fieldbook.")
        #expect(config.updateAvailableMessage == "A new version of Fieldbook is available with bug fixes and improvements.")
        #expect(config.storeURL == nil)  // no platform, no store
        #expect(config.androidNativeUpdateEnabled == false)
        #expect(config.maxAgeSeconds == 86400)
        #expect(config.features == ["photoAttachments": .on, "routeOptimiser": .off, "offlineQueueRewrite": .internal])
        #expect(config.notice == nil)  // useInAppDefault
        #expect(config.maintenance == false)
    }

    @Test("the ios condition's values apply to iOS")
    func iosConditionApplies() throws {
        let config = try #require(try reader.config(from: GateFixtures.firebaseTemplate(), for: .ios))
        #expect(config.minimumSupportedVersion?.text == "2.3.1")
        #expect(config.latestVersion?.text == "2.5.0")
        #expect(config.storeURL == "https://apps.apple.com/app/fieldbook/id1234567890")
        #expect(config.features == ["photoAttachments": .off])
        #expect(config.notice == GateNotice(level: "warning", text: "Photo attachments are off on iPhone today."))
        #expect(config.androidNativeUpdateEnabled == false)
    }

    @Test("the android condition's values apply to Android")
    func androidConditionApplies() throws {
        let config = try #require(try reader.config(from: GateFixtures.firebaseTemplate(), for: .android))
        #expect(config.minimumSupportedVersion?.text == "2.3.0")
        #expect(config.latestVersion?.text == "2.5.1")
        #expect(config.storeURL == "https://play.google.com/store/apps/details?id=com.example.fieldbook")
        #expect(config.androidNativeUpdateEnabled == true)
    }

    @Test("the whole verdict for an iOS user from the template")
    func verdictFromTemplate() throws {
        let config = try reader.config(from: GateFixtures.firebaseTemplate(), for: .ios)
        // 2.3.0 is at the default minimum but below iOS's 2.3.1.
        let decision = GateLadder.evaluate(installed: "2.3.0", config: config)
        #expect(decision.status == .blocked)
        #expect(decision.message == "A mandatory update is required to keep using Fieldbook.")
        #expect(decision.storeURL == "https://apps.apple.com/app/fieldbook/id1234567890")
        let android = try reader.config(from: GateFixtures.firebaseTemplate(), for: .android)
        #expect(GateLadder.evaluate(installed: "2.3.0", config: android).status == .updateAvailable)
    }

    @Test("parameter and condition names are listed in document order")
    func namesAreListed() throws {
        let document = try reader.read(GateFixtures.firebaseTemplate())
        #expect(document.conditionNames == ["ios", "android", "staff"])
        #expect(document.parameterNames.first == "vendor_min_supported_version")
        #expect(document.parameterNames.contains("vendor_latest_version"))
        #expect(document.parameterNames.contains("onboarding_carousel_enabled"))
        #expect(document.parameterNames.count == 11)
        #expect(document.value(of: .latestVersion, for: .android) == .string("2.5.1"))
        #expect(document.value(of: .notice, for: nil) == nil)
    }

    @Test("platform conditions can be renamed")
    func platformConditionsConfigurable() throws {
        let renamed = GateDocumentReader(format: .firebase, platformConditions: [.ios: "staff"])
        let text = #"{"conditions":[{"name":"staff","expression":"true"}],"parameters":{"vendor_min_supported_version":{"defaultValue":{"value":"1.0"},"conditionalValues":{"staff":{"value":"9.0"}}}}}"#
        #expect(try renamed.config(from: text, for: .ios)?.minimumSupportedVersion?.text == "9.0")
        #expect(try renamed.config(from: text, for: .android)?.minimumSupportedVersion?.text == "1.0")
    }

    @Test("key names can be changed per logical field")
    func keyNamesConfigurable() throws {
        let keys = GateKeys(format: .firebase, overrides: [.minimumSupportedVersion: "ios_minimum_version"])
        let reader = GateDocumentReader(format: .firebase, keys: keys)
        let text = #"{"parameters":{"ios_minimum_version":{"defaultValue":{"value":"0"}},"vendor_latest_version":{"defaultValue":{"value":"1.0.1"}}}}"#
        let config = try #require(try reader.config(from: text, for: .ios))
        #expect(config.minimumSupportedVersion == "0")
        #expect(config.latestVersion == "1.0.1")
        #expect(keys.name(for: .latestVersion) == "vendor_latest_version")
        #expect(keys.name(for: .platforms) == nil)
    }

    @Test("Remote Config values are strings: booleans and numbers are read from their text")
    func valuesAreStrings() throws {
        let text = #"{"parameters":{"vendor_maintenance":{"defaultValue":{"value":"TRUE"}},"vendor_max_age_seconds":{"defaultValue":{"value":" 60 "}},"vendor_config_version":{"defaultValue":{"value":"48"}}}}"#
        let config = try #require(try reader.config(from: text, for: nil))
        #expect(config.maintenance)
        #expect(config.maxAgeSeconds == 60)
        #expect(config.configVersion == "48")
    }

    @Test("configVersion falls back to the template's version number")
    func configVersionFromTemplateVersion() throws {
        let text = #"{"parameters":{},"version":{"versionNumber":"42","updateOrigin":"CONSOLE"}}"#
        #expect(try reader.config(from: text, for: nil)?.configVersion == "42")
    }

    @Test("a template with no gate parameters gates nothing")
    func emptyTemplateGatesNothing() throws {
        let config = try #require(try reader.config(from: "{}", for: .ios))
        #expect(config == GateConfig())
        #expect(GateLadder.evaluate(installed: "0.1", config: config).status == .ok)
    }

    @Test("values as the Firebase SDK serves them, conditions already applied")
    func valuesFromTheSDK() throws {
        let document = reader.read(values: [
            "vendor_min_supported_version": "2.3.1", "vendor_latest_version": "2.5.0",
            "vendor_ios_store_url": "https://apps.apple.com/app/fieldbook/id1234567890",
            "vendor_android_store_url": "https://play.google.com/store/apps/details?id=com.example.fieldbook",
            "vendor_android_native_update_enabled": "false", "vendor_features": #"{"photoAttachments":"off"}"#,
            "vendor_notice": "", "vendor_max_age_seconds": "", "unrelated_key": "x",
        ])
        let config = try #require(try document.config(for: .ios))
        #expect(config.minimumSupportedVersion?.text == "2.3.1")
        #expect(config.storeURL == "https://apps.apple.com/app/fieldbook/id1234567890")
        #expect(config.features == ["photoAttachments": .off])
        #expect(config.notice == nil)  // "" is what the SDK serves for a key it lacks
        #expect(config.maxAgeSeconds == nil)
        #expect(document.parameterNames.count == 9)
        #expect(GateLadder.evaluate(installed: "2.3.0", config: config).status == .blocked)
    }

    @Test("structural mistakes are errors", arguments: [
        (#"{"parameters":[]}"#, #""parameters": expected an object, found an array"#),
        (#"{"conditions":{}}"#, #""conditions": expected an array, found an object"#),
        (#"{"conditions":[{"expression":"x"}]}"#, #""conditions"[0]: expected an object with a string "name""#),
        (#"{"parameters":{"a":{"defaultValue":{"value":2}}}}"#,
         #""parameters"."a"."defaultValue"."value": expected a string (Remote Config values are strings), found a number"#),
        (#"{"parameters":{"a":{"defaultValue":{}}},"parameterGroups":{"g":{"parameters":{"a":{"defaultValue":{}}}}}}"#,
         #""a" is defined twice (a parameter sits at the top level or in one group, not both)"#),
        (#"{"parameterGroups":{"g":{"parameters":{"a":"1"}}}}"#,
         #""parameterGroups"."g"."parameters"."a": expected an object, found a string"#),
        (#"[1]"#, "the document is a JSON array, expected an object (or null)"),
    ])
    func structuralMistakesAreErrors(_ text: String, _ message: String) {
        #expect(throws: GateDocumentError(message)) { try reader.read(text) }
    }

    @Test("a value of the wrong type is an error when the config is resolved")
    func wrongTypedValueIsAnError() throws {
        let text = #"{"parameters":{"vendor_android_native_update_enabled":{"defaultValue":{"value":"maybe"}}}}"#
        #expect(throws: GateDocumentError(#""vendor_android_native_update_enabled": expected true or false, found "maybe""#)) {
            try reader.config(from: text, for: .android)
        }
        let badFeatures = #"{"parameters":{"vendor_features":{"defaultValue":{"value":"{\"a\":"}}}}"#
        #expect(throws: GateDocumentError.self) { try reader.config(from: badFeatures, for: nil) }
    }
}
