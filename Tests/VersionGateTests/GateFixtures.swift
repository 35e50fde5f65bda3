import Foundation

/// The gate documents in Fixtures/, read as text (the tests may use Foundation; the library does not).
enum GateFixtures {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    static func text(_ name: String) throws -> String {
        try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
    }

    /// A Firebase Remote Config template as `firebase remoteconfig:get -o` writes it: two-space indentation,
    /// no final newline, a parameter group, `ios`, `android` and `staff` conditions.
    static func firebaseTemplate() throws -> String { try text("remoteconfig.template.json") }

    /// A plain JSON document served by the team's own API, with an `android` override under `platforms`.
    static func plainDocument() throws -> String { try text("gate.json") }
}
