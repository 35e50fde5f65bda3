import Testing
import RelctlCore
import RelctlJSON
@testable import RelctlFiles

/// One unit per format, listed once: the facts the README states per format come from the units.
@Suite struct FormatRegistryTests {
    @Test func everyFormatHasExactlyOneUnit() {
        for format in FileFormat.allCases {
            #expect(FormatRegistry.units.filter { $0.name == format }.count == 1, "\(format.rawValue)")
        }
        #expect(FormatRegistry.units.count == FileFormat.allCases.count)
    }

    @Test func iosFormatsGetTheStoreSafeVersionAndTheOthersKeepItWhole() {
        let ios = FileFormat.allCases.filter { $0.marketingPlatform == .ios }
        let android = FileFormat.allCases.filter { $0.marketingPlatform == .android }
        #expect(Set(ios) == [.expo, .expoJS, .pbxproj, .plist, .xcconfig, .pubspec])
        #expect(Set(android) == [.gradle, .properties, .versionCatalog])
    }

    @Test func onlyTheXcodeFormatsTakeOnlyAndSetBuildSettings() {
        #expect(OnlyField.formats == [.pbxproj, .plist, .xcconfig])
        #expect(Set(FileFormat.allCases.filter { $0.unit.buildSettings == .sets }) == [.pbxproj, .xcconfig])
        #expect(FileFormat.allCases.filter { $0.unit.buildSettings == .flutter } == [.pubspec])
    }

    @Test func optionKeysAreTheUnitsOwn() throws {
        // An option of another format is named as such; an unknown key as unknown.
        let entry = try JSONDocument.parse(#"{"path": "package.json", "format": "json", "pattern": "x"}"#, allowJSON5: false)
        let other = #expect(throws: FileEditError.self) { try FileEntry(from: entry, configPath: ".relctl.json") }
        #expect(other?.message == "option \"pattern\" does not apply to format json")
        #expect(other?.hint == "allowed keys for json: field, format, keyPath, path")
        let unknown = try JSONDocument.parse(#"{"path": "pubspec.yaml", "format": "pubspec", "padding": true}"#, allowJSON5: false)
        let error = #expect(throws: FileEditError.self) { try FileEntry(from: unknown, configPath: ".relctl.json") }
        #expect(error?.message == "unknown key \"padding\" in files entry pubspec.yaml")
    }
}
