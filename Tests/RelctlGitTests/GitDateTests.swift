import Foundation
import Testing
@testable import RelctlGit

/// `GIT_AUTHOR_DATE` / `GIT_COMMITTER_DATE` parsing, a pure function: no repository, no environment.
@Suite("Git dates in the forms git accepts")
struct GitDateTests {
    static let utc = TimeZone(identifier: "UTC")!

    @Test(arguments: [
        ("@1700000000 +0130", 1_700_000_000, 90),
        ("1700000000 -0500", 1_700_000_000, -300),
        ("@1700000000", 1_700_000_000, 0),
        // A bare number big enough not to be a date like 20200101 is a timestamp, as in git.
        ("1700000000", 1_700_000_000, 0),
        ("  @1700000000 +0130  ", 1_700_000_000, 90),
    ])
    func rawForm(text: String, seconds: Int64, offset: Int32) throws {
        let parsed = try #require(GitDate.parse(text, localZone: Self.utc), "\(text)")
        #expect(parsed.seconds == seconds, "\(text)")
        #expect(parsed.offsetMinutes == offset, "\(text)")
    }

    @Test(arguments: [
        ("2020-01-01T00:00:00Z", 1_577_836_800, 0),
        ("2020-01-01 00:00:00Z", 1_577_836_800, 0),
        ("2020-01-01T00:00z", 1_577_836_800, 0),
        ("2020-01-01T02:00:00+02:00", 1_577_836_800, 120),
        ("2020-01-01T02:00:00+02", 1_577_836_800, 120),
        ("2019-12-31T19:00:00-05:00", 1_577_836_800, -300),
        ("2020-01-01T05:30:00+0530", 1_577_836_800, 330),
        ("2020-01-01 00:00:00 +0000", 1_577_836_800, 0),
        ("2020-01-01T00:00:00.250Z", 1_577_836_800, 0),
        ("2020-01-01T00:00:00,5Z", 1_577_836_800, 0),
        ("2024-02-29T12:34:56Z", 1_709_210_096, 0),
        ("1969-12-31T23:59:59Z", -1, 0),
    ])
    func iso8601Forms(text: String, seconds: Int64, offset: Int32) throws {
        let parsed = try #require(GitDate.parse(text, localZone: Self.utc), "\(text)")
        #expect(parsed.seconds == seconds, "\(text)")
        #expect(parsed.offsetMinutes == offset, "\(text)")
    }

    @Test(arguments: [
        ("Wed, 1 Jan 2020 00:00:00 +0000", 1_577_836_800, 0),
        ("1 Jan 2020 01:00:00 +0100", 1_577_836_800, 60),
        ("Tue, 31 Dec 2019 16:00 -0800", 1_577_836_800, -480),
        ("Thu, 29 Feb 2024 12:34:56 GMT", 1_709_210_096, 0),
        ("Wed, 01 Jan 2020 00:00:00 UT", 1_577_836_800, 0),
        ("wed, 1 jan 2020 00:00 z", 1_577_836_800, 0),
    ])
    func rfc2822Forms(text: String, seconds: Int64, offset: Int32) throws {
        let parsed = try #require(GitDate.parse(text, localZone: Self.utc), "\(text)")
        #expect(parsed.seconds == seconds, "\(text)")
        #expect(parsed.offsetMinutes == offset, "\(text)")
    }

    /// An ISO 8601 date without a zone is in the local zone, with that zone's offset on that day (as git does).
    @Test(arguments: [
        ("Asia/Kolkata", "2020-01-01T00:00:00", 1_577_817_000, 330),
        ("America/New_York", "2020-01-01T00:00:00", 1_577_854_800, -300),
        ("America/New_York", "2020-07-01 12:00:00", 1_593_619_200, -240),
        ("UTC", "2020-01-01T00:00:00", 1_577_836_800, 0),
    ])
    func noZoneMeansTheLocalZone(zone: String, text: String, seconds: Int64, offset: Int32) throws {
        let localZone = try #require(TimeZone(identifier: zone))
        let parsed = try #require(GitDate.parse(text, localZone: localZone), "\(text) in \(zone)")
        #expect(parsed.seconds == seconds, "\(text) in \(zone)")
        #expect(parsed.offsetMinutes == offset, "\(text) in \(zone)")
    }

    /// A zone written in the date wins over the local zone.
    @Test func aWrittenZoneIgnoresTheLocalZone() throws {
        let kolkata = try #require(TimeZone(identifier: "Asia/Kolkata"))
        let parsed = try #require(GitDate.parse("2020-01-01T00:00:00Z", localZone: kolkata))
        #expect(parsed.seconds == 1_577_836_800)
        #expect(parsed.offsetMinutes == 0)
    }

    @Test(arguments: [
        "", "yesterday", "next tuesday", "@", "@abc", "20200101", "99999999", "1700000000 +0000 extra",
        "@1700000000 0130", "@1700000000 +01:3",
        "2020-13-01T00:00:00Z", "2019-02-29T00:00:00Z", "2020-02-30T00:00:00Z", "2020-01-01T24:00:00Z",
        "2020-01-01T00:60:00Z", "2020-1-01T00:00:00Z", "2020-01-01T00:00:00.Z", "2020-01-01T00:00:00Q",
        "2020-01-01T00:00:00+25:00", "2020-01-01T00:00:00+1500", "2020-01-01T00:00:00+0260",
        "Wed, 1 Foo 2020 00:00:00 +0000", "Foo, 1 Jan 2020 00:00:00 +0000", "Wed, 1 Jan 20 00:00:00 +0000",
        "Wed, 1 Jan 2020 0:00:00 +0000", "Wed, 1 Jan 2020 00:00:00 +02", "Wed, 32 Jan 2020 00:00:00 +0000",
    ])
    func unreadable(text: String) {
        #expect(GitDate.parse(text, localZone: Self.utc) == nil, "\(text)")
    }

    /// The error message names the forms relctl reads: each example it gives must parse.
    @Test(arguments: ["@1700000000 +0000", "2020-01-01T00:00:00Z", "2020-01-01 00:00:00+02:00", "Wed, 1 Jan 2020 00:00:00 +0000"])
    func everyExampleInTheMessageParses(example: String) {
        #expect(GitDate.acceptedForms.contains(example))
        #expect(GitDate.parse(example, localZone: Self.utc) != nil, "\(example)")
    }
}
