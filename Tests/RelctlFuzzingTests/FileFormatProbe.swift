import RelctlFiles
@testable import RelctlFuzzing

/// What the editors harness does with an input's first byte, for checking the seeds.
enum FileFormatProbe {
    static func format(of bytes: [UInt8]) -> FileFormat {
        FileFormat.allCases[Int(bytes.first ?? 0) % FileFormat.allCases.count]
    }

    static func reads(_ bytes: [UInt8]) -> Bool {
        FuzzHarness.editorParses(bytes)
    }
}
