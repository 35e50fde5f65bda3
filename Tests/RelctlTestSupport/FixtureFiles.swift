import Foundation

/// The golden fixture files every test target reads: `Tests/RelctlFilesTests/Fixtures/<format>/<name>.before|.after`
/// (SwiftPM leaves the folder out of the test targets).
public enum FixtureFiles {
    /// `Tests/RelctlFilesTests/Fixtures`.
    public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("RelctlFilesTests/Fixtures")

    /// The bytes of `<relativePath>` under the fixtures folder.
    public static func data(_ relativePath: String) throws -> Data {
        try Data(contentsOf: root.appendingPathComponent(relativePath))
    }
}
