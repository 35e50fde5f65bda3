import Testing
import RelctlCore
import RelctlJSON

@Suite("Diagnostics: one shape for every user-facing error")
struct DiagnosticTests {
    @Test func renderedAsPathLineMessageHint() {
        let problem = Problem("'tagFromat' is not a key", at: DiagnosticLocation(path: "/repo/.relctl.json", line: 3),
                              hint: "did you mean 'tagFormat'?")
        #expect(problem.rendered() == "/repo/.relctl.json:3: 'tagFromat' is not a key (did you mean 'tagFormat'?)")
        #expect(problem.rendered(relativeTo: "/repo") == ".relctl.json:3: 'tagFromat' is not a key (did you mean 'tagFormat'?)")
        #expect(problem.rendered(relativeTo: "/rep") == problem.rendered())   // only a whole folder is cut
        #expect(Problem("no line", at: DiagnosticLocation(path: "app.json")).rendered() == "app.json: no line")
        #expect(Problem("nowhere").rendered() == "nowhere")
    }

    @Test func versionAndFormatErrorsRenderAsTheirDescription() throws {
        let semver = #expect(throws: Problem.self) { try SemanticVersion.parse("01.2.3") }
        let tag = #expect(throws: Problem.self) { try TagFormat("v{version}{version}") }
        let calendar = #expect(throws: Problem.self) { try CalendarScheme("MICRO") }
        for error in [semver as (any Diagnostic)?, tag, calendar] {
            let error = try #require(error)
            #expect(error.location == nil && error.hint == nil)
            #expect(error.rendered() == error.description)
        }
    }

    @Test func jsonErrorsTakeTheirFileFromTheReader() throws {
        let error = try #require(#expect(throws: JSONParseError.self) { try JSONDocument.parse("{\n  \"a\": ,\n}", allowJSON5: false) })
        #expect(error.location == nil)
        #expect(error.description.hasPrefix("line 2, column "))
        let located = error.located(in: "app.json")
        #expect(located.location == DiagnosticLocation(path: "app.json", line: 2))
        #expect(located.rendered() == "app.json:2: \(error.message) (column \(error.column))")
    }

    @Test func internalErrorsSayTheyAreABug() {
        let error = Problem.internalError("the release commit was made but not recorded")
        #expect(error.rendered() == "internal error: the release commit was made but not recorded (this is a bug in relctl; please report it with the command that was run and this message)")
    }
}

@Suite("Store-rule violations carry their store and value as fields")
struct StoreRuleViolationFieldsTests {
    @Test func descriptionIsMessageRuleAndFix() {
        let violation = StoreRuleViolation(message: "m", rule: "r", fix: "f")
        #expect(violation.description == "m (rule: r; fix: f)")
        #expect(violation.rendered() == violation.description)
        #expect(violation.platform == nil && violation.value == nil)
    }

    @Test(arguments: [
        // (current iOS, current Android, expected platform, expected value)
        ("1.7.0.4", nil, StorePlatform.ios, "1.7.0.4"),     // four parts: App Store Connect reads three
        ("3.19", "3", .android, nil),                      // a dotted shared counter cannot be a versionCode
        ("12b", nil, nil, "12b"),                           // not numeric: no store named, the value quoted
    ] as [(String?, String?, StorePlatform?, String?)])
    func incrementViolations(ios: String?, android: String?, platform: StorePlatform?, value: String?) {
        let violation = #expect(throws: StoreRuleViolation.self) {
            try BuildNumberPolicy.next(strategy: .increment, currentIOS: ios, currentAndroid: android,
                                       version: "1.0.0", environment: [:])
        }
        #expect(violation?.platform == platform)
        #expect(violation?.value == value)
    }

    @Test func storeValidationsNameTheirStore() {
        let android = #expect(throws: StoreRuleViolation.self) { try StoreRules.validateAndroidVersionCode("57", current: "57") }
        #expect(android?.platform == .android && android?.value == nil)
        let zero = #expect(throws: StoreRuleViolation.self) { try StoreRules.validateAndroidVersionCode("0") }
        #expect(zero?.platform == .android && zero?.value == "0")
        let ios = #expect(throws: StoreRuleViolation.self) { try StoreRules.validateIOSBuildNumber("12", current: "12") }
        #expect(ios?.platform == .ios && ios?.value == nil)
        let pubspec = #expect(throws: StoreRuleViolation.self) { try StoreRules.validatePubspecBuildNumber("0") }
        #expect(pubspec?.platform == nil && pubspec?.value == "0")   // Flutter's +N feeds both stores
        let env = #expect(throws: StoreRuleViolation.self) {
            try BuildNumberPolicy.next(strategy: .env(name: "RUN"), currentIOS: nil, currentAndroid: nil, version: "1.0.0",
                                       environment: ["RUN": "x1"])
        }
        #expect(env?.platform == nil && env?.value == "x1")
    }
}
