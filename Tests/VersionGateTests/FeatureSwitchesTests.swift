import Testing
import VersionGate

@Suite("FeatureSwitches: three states and the build default")
struct FeatureSwitchesTests {
    let config = GateConfig(features: ["photoAttachments": .on, "routeOptimiser": .off, "offlineQueueRewrite": .internal])

    @Test("on is on and off is off for everyone")
    func onAndOff() {
        for internalUser in [false, true] {
            #expect(FeatureSwitches.isEnabled("photoAttachments", in: config, buildDefault: false, isInternalUser: internalUser))
            #expect(!FeatureSwitches.isEnabled("routeOptimiser", in: config, buildDefault: true, isInternalUser: internalUser))
        }
    }

    @Test("internal is on only for internal users")
    func internalOnlyForInternalUsers() {
        #expect(FeatureSwitches.isEnabled("offlineQueueRewrite", in: config, buildDefault: false, isInternalUser: true))
        #expect(!FeatureSwitches.isEnabled("offlineQueueRewrite", in: config, buildDefault: true, isInternalUser: false))
    }

    @Test("an unknown switch uses the build default")
    func unknownSwitchUsesBuildDefault() {
        #expect(FeatureSwitches.isEnabled("renamedFeature", in: config, buildDefault: true, isInternalUser: false))
        #expect(!FeatureSwitches.isEnabled("renamedFeature", in: config, buildDefault: false, isInternalUser: true))
    }

    @Test("a null document runs with the build defaults")
    func nullDocumentUsesBuildDefaults() {
        #expect(FeatureSwitches.isEnabled("photoAttachments", in: nil, buildDefault: true, isInternalUser: false))
        #expect(!FeatureSwitches.isEnabled("photoAttachments", in: nil, buildDefault: false, isInternalUser: true))
    }
}
