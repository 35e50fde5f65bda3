import Testing
import RelctlCore
@testable import RelctlCLI

/// `highestFirst` sorts by (major, minor, patch) for stable SemVer; it must give the order of `ReleaseVersion`'s `<`.
@Suite("Release tag candidates: highest first, as the version order says")
struct ReleaseCandidateOrderTests {
    private func reference(_ candidates: [(version: ReleaseVersion, tag: String)]) -> [String] {
        candidates.sorted { a, b in
            b.version < a.version || (!(a.version < b.version) && a.tag < b.tag)
        }.map(\.tag)
    }

    private func candidates(_ tags: [String], scheme: VersionScheme, prefix: String = "v") -> [(version: ReleaseVersion, tag: String)] {
        tags.map { tag in (scheme.parse(String(tag.dropFirst(prefix.count)))!, tag) }
    }

    @Test func stableSemanticVersionsWithBuildMetadataAndLargeNumbers() {
        let tags = ["v1.2.3", "v1.10.0", "v1.2.3+build.7", "v1.2.3+build.10", "v0.9.9", "v2.0.0", "v1.9.12",
                    "v18446744073709551615.0.0", "v10.0.0", "v1.2.10", "v1.2.3+a", "v2.0.0+z", "v0.0.1"]
        let list = candidates(tags, scheme: .semver)
        let sorted = ReleaseTags.highestFirst(list).map(\.tag)
        #expect(sorted == reference(list))
        #expect(sorted.first == "v18446744073709551615.0.0")
        #expect(Array(sorted.suffix(2)) == ["v0.9.9", "v0.0.1"])
        // Reversed input gives the same order: ties go by tag, not by position.
        #expect(ReleaseTags.highestFirst(list.reversed()).map(\.tag) == sorted)
    }

    @Test func calendarVersionsUseTheSchemesOrder() throws {
        let scheme = try VersionScheme("YYYY.M.MICRO")
        let tags = ["v2024.1.0", "v2024.10.0", "v2023.12.4", "v2024.1.2", "v2024.2.0"]
        let list = candidates(tags, scheme: scheme)
        #expect(ReleaseTags.highestFirst(list).map(\.tag) == reference(list))
        #expect(ReleaseTags.highestFirst(list).first?.tag == "v2024.10.0")
    }

    @Test func manyTagsInAnyOrder() {
        var tags: [String] = []
        for major in 0..<5 { for minor in stride(from: 0, to: 60, by: 7) { for patch in [0, 3, 11] {
            tags.append("v\(major).\(minor).\(patch)")
            if patch == 3 { tags.append("v\(major).\(minor).\(patch)+ci.\(minor)") }
        } } }
        var generator = SystemRandomNumberGenerator()
        let list = candidates(tags.shuffled(using: &generator), scheme: .semver)
        #expect(ReleaseTags.highestFirst(list).map(\.tag) == reference(list))
    }
}
