import Testing
@testable import RelctlCore

@Suite("calendar dates (UTC, ISO weeks)")
struct CalendarDateTests {
    @Test(arguments: [
        (Int64(1_790_000_000), "2026-09-21", 2026, 39),
        (0, "1970-01-01", 1970, 1),
        (-86_400, "1969-12-31", 1970, 1),
        (1_735_516_800, "2024-12-30", 2025, 1),   // a Monday in the first ISO week of 2025
        (1_609_459_200, "2021-01-01", 2020, 53),  // a Friday still in 2020's last ISO week
        (951_782_400, "2000-02-29", 2000, 9),
    ])
    func fromEpochSeconds(seconds: Int64, day: String, isoYear: Int, isoWeek: Int) {
        let date = CalendarDate(epochSeconds: seconds)
        #expect(date.description == day)
        #expect(date.isoYear == isoYear)
        #expect(date.isoWeek == isoWeek)
    }

    @Test func lastSecondOfADayIsThatDay() {
        #expect(CalendarDate(epochSeconds: 1_790_000_000 - 1_790_000_000 % 86_400 + 86_399).description == "2026-09-21")
        #expect(CalendarDate(epochSeconds: -1).description == "1969-12-31")
    }

    @Test func invalidDatesAreNil() {
        #expect(CalendarDate(year: 2023, month: 2, day: 29) == nil)
        #expect(CalendarDate(year: 2024, month: 13, day: 1) == nil)
        #expect(CalendarDate(year: 2024, month: 2, day: 29)?.description == "2024-02-29")
    }
}

@Suite("calendar schemes")
struct CalendarSchemeTests {
    let march5 = CalendarDate(year: 2024, month: 3, day: 5)!

    @Test(arguments: ["YYYY.M.MICRO", "YY.M.PATCH", "YYYY.MM.MICRO", "YY.M", "YYYY.M", "YYYY.0M.0D", "0Y.0M.MICRO",
                      "YYYY.WW", "YYYY.0W.MICRO", "YYYY.MICRO", "YYYY", "YYYY.M.D.MICRO"])
    func validPatterns(pattern: String) throws {
        let scheme = try CalendarScheme(pattern)
        #expect(scheme.pattern == pattern)
        #expect(scheme.tokens.count == pattern.split(separator: ".").count)
    }

    @Test(arguments: [
        ("M.YYYY", "must start with a year"),
        ("YYYY.Q", "unknown token \"Q\""),
        ("yyyy.m", "unknown token \"yyyy\""),
        ("YYYY..MICRO", "empty component"),
        ("YYYY.MICRO.M", "M out of place"),
        ("YYYY.M.M", "M out of place"),
        ("YYYY.WW.D", "mixes a week with a month or a day"),
        ("YYYY.D", "a day without a month"),
        ("YYYY.YY", "YY out of place"),
        ("", "empty component"),
    ])
    func invalidPatterns(pattern: String, reason: String) {
        #expect(throws: Problem.self) { try CalendarScheme(pattern) }
        do {
            _ = try CalendarScheme(pattern)
        } catch {
            #expect(error.message.contains(reason), "\(error.message)")
        }
    }

    @Test(arguments: [
        ("YYYY.M.MICRO", "2024.3.0"), ("YY.M.PATCH", "24.3.0"), ("YYYY.MM.MICRO", "2024.3.0"), ("YY.0M", "24.03"),
        ("0Y.0M.MICRO", "24.03.0"), ("YYYY.0M.0D", "2024.03.05"), ("YYYY.WW", "2024.10"), ("YYYY.0W.MICRO", "2024.10.0"),
        ("YYYY.MICRO", "2024.0"), ("YYYY.M.D.MICRO", "2024.3.5.0"),
    ])
    func firstReleaseOfThePeriod(pattern: String, expected: String) throws {
        let scheme = try CalendarScheme(pattern)
        #expect(scheme.next(after: nil, on: march5)?.text == expected)
    }

    @Test func tokensWriteAndReadTheirOwnForm() throws {
        let padded = try CalendarScheme("YYYY.0M.MICRO")
        #expect(padded.parse("2024.01.3")?.period == [2024, 1])
        #expect(padded.parse("2024.1.3") == nil)        // 0M is zero-padded
        let short = try CalendarScheme("YYYY.M.MICRO")
        #expect(short.parse("2024.01.3") == nil)        // M (and MM, as on calver.org) is not
        #expect(short.parse("2024.12.03") == nil)       // the counter has no leading zero
        #expect(short.parse("2024.13.0") == nil)        // no month 13
        #expect(short.parse("24.12.0") == nil)          // YYYY is the full year
        #expect(short.parse("2024.12.0.1") == nil)      // one component too many
        #expect(try CalendarScheme("YY.M").parse("24.12")?.period == [2024, 12])
        #expect(try CalendarScheme("0Y.M").parse("06.1")?.period == [2006, 1])
        #expect(try CalendarScheme("0Y.M").parse("6.1") == nil)
    }

    @Test func anOmittedCounterIsThePeriodsFirstRelease() throws {
        let scheme = try CalendarScheme("YYYY.M.MICRO")
        let omitted = try #require(scheme.parse("2024.12"))
        #expect(omitted.counter == 0)
        #expect(omitted.hasSamePrecedence(as: try #require(scheme.parse("2024.12.0"))))
        // The next one in December counts on; the text the files use is kept for the current version.
        #expect(scheme.next(after: omitted, on: CalendarDate(year: 2024, month: 12, day: 15)!)?.text == "2024.12.1")
    }

    @Test func prereleasesAreParsedAndSortBelowTheirRelease() throws {
        let scheme = try CalendarScheme("YYYY.M.MICRO")
        let beta = try #require(scheme.parse("2024.12.0-beta.2"))
        let final = try #require(scheme.parse("2024.12.0"))
        #expect(!beta.isStable)
        #expect(beta < final)
        #expect(try #require(scheme.parse("2024.12.0-beta.1")) < beta)
        #expect(scheme.parse("2024.12.0-") == nil)
        #expect(scheme.parse("2024.12.0+build.7")?.isStable == true)
    }

    @Test func aNewPeriodResetsTheCounterAndTheSamePeriodBumpsIt() throws {
        let scheme = try CalendarScheme("YYYY.M.MICRO")
        let august = try #require(scheme.parse("2026.8.3"))
        #expect(scheme.next(after: august, on: CalendarDate(year: 2026, month: 8, day: 31)!)?.text == "2026.8.4")
        #expect(scheme.next(after: august, on: CalendarDate(year: 2026, month: 9, day: 1)!)?.text == "2026.9.0")
        #expect(scheme.next(after: august, on: CalendarDate(year: 2027, month: 1, day: 1)!)?.text == "2027.1.0")
        // A release date before the current version's period (a clock behind) never goes backwards.
        #expect(scheme.next(after: august, on: CalendarDate(year: 2026, month: 7, day: 1)!)?.text == "2026.8.4")
    }

    @Test func withoutACounterASecondReleaseInOnePeriodHasNoNumber() throws {
        let scheme = try CalendarScheme("YYYY.M")
        let december = try #require(scheme.parse("2024.12"))
        #expect(scheme.next(after: december, on: CalendarDate(year: 2024, month: 12, day: 31)!) == nil)
        #expect(scheme.next(after: december, on: CalendarDate(year: 2025, month: 1, day: 2)!)?.text == "2025.1")
        #expect(scheme.periodName == "month")
        #expect(try CalendarScheme("YYYY.0M.0D").periodName == "day")
        #expect(try CalendarScheme("YYYY.WW").periodName == "week")
    }

    @Test func weekSchemesUseTheISOWeekYearSoTheTurnOfTheYearMovesForward() throws {
        let scheme = try CalendarScheme("YYYY.WW.MICRO")
        let lastWeek = try #require(scheme.next(after: nil, on: CalendarDate(year: 2024, month: 12, day: 23)!))
        #expect(lastWeek.text == "2024.52.0")
        let monday = try #require(scheme.next(after: lastWeek, on: CalendarDate(epochSeconds: 1_735_516_800)))   // 2024-12-30
        #expect(monday.text == "2025.1.0")
        #expect(lastWeek < monday)
    }

    @Test func versionSchemeParsesEitherKind() throws {
        #expect(try VersionScheme("semver") == .semver)
        #expect(try VersionScheme("semver").parse("2.43") == nil)
        #expect(try VersionScheme("YYYY.M").parse("2024.12")?.description == "2024.12")
        #expect(try VersionScheme("YYYY.M").componentCount == 2)
        #expect(try VersionScheme("YY.0M").example == "YY.0M such as 24.03")
        #expect(throws: Problem.self) { try VersionScheme("SemVer") }
    }
}

@Suite("tag formats with a product suffix")
struct TagFormatSuffixTests {
    @Test func aSuffixIsNotAPrerelease() throws {
        let format = try TagFormat("v{version}-bwpm")
        let scheme = try VersionScheme("YYYY.M.MICRO")
        #expect(format.versionText(fromTag: "v2026.8.0-bwpm") == "2026.8.0")
        #expect(format.version(fromTag: "v2026.8.0-bwpm", scheme: scheme)?.isStable == true)
        #expect(format.version(fromTag: "v2026.8.0-beta.1-bwpm", scheme: scheme)?.isStable == false)
        #expect(format.version(fromTag: "v2026.8.0", scheme: scheme) == nil)
        #expect(format.versionText(fromTag: "v-bwpm") == nil)
        #expect(format.tagName(for: try #require(scheme.parse("2026.9.0"))) == "v2026.9.0-bwpm")
        // Without the suffix in the format, the same tag reads as a prerelease: never a release base.
        #expect(TagFormat.default.version(fromTag: "v2026.8.0-bwpm", scheme: scheme)?.isStable == false)
        #expect(try TagFormat("v{version}-bwpm").version(fromTag: "v1.2.3-bwpm")?.description == "1.2.3")
    }
}
