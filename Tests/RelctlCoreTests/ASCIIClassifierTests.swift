import Testing
@testable import RelctlCore

/// `ASCIIClassifier` (the streaming classifier's byte-level path) gives exactly what `CommitAnalyzer.classify`
/// followed by `dropBodyAndFooters` gives, on every input: the usual ones on its own path, the unusual ones (non-ASCII,
/// CR, reverts, fixups analyzed as their target) handed to the general one.
@Suite("ASCIIClassifier: same result as CommitAnalyzer")
struct ASCIIClassifierTests {
    static let hex = "0123456789abcdeffedcba98765432100a1b2c3d"
    static let id = CommitID(hex: hex)!

    static let rules: [ReleaseRules] = [
        .default,
        ReleaseRules(ignoreMerges: false, ignoreFixups: false),
        ReleaseRules(bumpForType: ["FEAT": .major, "docs": .patch, "Chore": .minor], majorOnZero: true),
    ]

    /// The general path's result, as the streaming classifier kept it before.
    static func reference(_ message: String, parents: Int, rules: ReleaseRules) -> AnalyzedCommit {
        var analyzed = CommitAnalyzer.classify(RawCommit(sha: hex, message: message, parentCount: parents), rules: rules)
        analyzed.dropBodyAndFooters()
        return analyzed
    }

    /// `classifiers`: one per rules of ``rules``, kept across messages as a batch keeps one (it remembers types).
    static func expectSame(_ message: String, classifiers: inout [ASCIIClassifier],
                           sourceLocation: SourceLocation = #_sourceLocation) {
        for index in Self.rules.indices {
            let rules = Self.rules[index]
            for parents in [1, 2] {
                let expected = reference(message, parents: parents, rules: rules)
                let actual = classifiers[index].classify(message: message, parentCount: parents, id: id)
                #expect(actual == expected, "\(message.debugDescription) parents \(parents)", sourceLocation: sourceLocation)
                // Field by field too, so that a difference shows where it is.
                #expect(actual.sha == expected.sha && actual.summary == expected.summary, sourceLocation: sourceLocation)
                #expect(actual.message == expected.message, "\(message.debugDescription)", sourceLocation: sourceLocation)
                #expect(actual.bump == expected.bump && actual.status == expected.status
                        && actual.isConventional == expected.isConventional
                        && actual.revertedSHA == expected.revertedSHA && actual.revertMainline == expected.revertMainline,
                        "\(message.debugDescription)", sourceLocation: sourceLocation)
            }
        }
    }

    /// Whether the byte-level path took `message` itself (it returns nil for what it leaves to the general path).
    static func takesFastPath(_ message: String) -> Bool {
        var copy = message
        copy.makeContiguousUTF8()
        var classifier = ASCIIClassifier(rules: .default)
        let result = copy.utf8.withContiguousStorageIfAvailable {
            classifier.classify(bytes: $0, parentCount: 1, sha: .packed(id))
        }
        return result.flatMap { $0 } != nil
    }

    static let usual: [String] = [
        "feat: add the thing", "feat: add the thing\n", "fix(api): handle a timeout\n\nthe body\n",
        "feat(ui)!: drop iOS 15", "feat(ui)!: drop iOS 15\n\nBREAKING CHANGE: iOS 16 at least\n",
        "perf: faster\n\nBREAKING CHANGE: the cache format changed", "chore: with footers\n\nRefs: #12\nReviewed-by: A",
        "not conventional at all", "feat:  two spaces before the description", "feat: trailing space   \n",
        "\n\nfeat: after blank lines", "  \n\t\nfeat: after whitespace lines\n", "docs!: a bang\n\nBREAKING CHANGE: another text",
        "docs!: same\n\nBREAKING CHANGE: same", "feat: x\n\nBREAKING CHANGE:\n", "feat: x\n\nBREAKING-CHANGE: dash\n  more\n",
        "feat: x\n\nBREAKING CHANGE: a\n\n(cherry picked from commit 0123456)\n\nRefs: #1\n",
        "feat: x\n\nRefs: #1\n\nplain paragraph\n", "feat: x\n\nRefs: #1\nBREAKING CHANGE: inside the block\n",
        "feat: x\n\nbody\n\nRefs: #1\n  continued\n\nBREAKING-CHANGE: b\n\nReviewed-by: A\n", "feat: x\n\nBREAKING CHANGE: a\nBREAKING CHANGE: b\nRefs #2\n",
        "feat: x\n\nbody\nBREAKING CHANGE: not a paragraph start\n", "feat: x\nno blank line\n\nRefs: #3",
        "feat: x\n\nBREAKING CHANGEX: y", "feat: x\n\nBREAKING change: y", "feat: x\n\nToken:value", "feat: x\n\nToken:",
        "feat: x\n\nRefs #", "feat: x\n\nRefs #1\n\n\n\n", "feat: x\n\nBREAKING CHANGE: v  \n\n   \n",
        "fixup! feat: y", "squash! fix: y\n\nbody", "amend! amend! docs: z", "Merge branch 'main'\n",
        "feat(scope with space): ok", "feat(): empty scope", "feat((x)): nested", "feat(x: unterminated",
        "FEAT: upper", "Fix_me-2(x)!: odd type", "feat:", "feat: ", "feat:x", "feat !: x", " feat: leading space",
        "", "\n", "\n\n\n", "   ", "feat: x\n\n", String(repeating: "a", count: 70_000), "feat: " + String(repeating: "d", count: 70_000),
        "revert: x", "Revert: x", "REVERT(core): x\n\nThis reverts commit 0123456.\n",
        "Revert \"feat: x\"\n\nThis reverts commit 0123456789abcdef0123456789abcdef01234567.\n",
        "Reapply \"feat: x\"\n\nThis reverts commit 0123456.\n", "Revert \"\"", "Revert \"x", "Reapply \"",
        "\u{0B}\nfeat: after a vertical tab line", "\u{0C}feat: form feed first", "feat: x\u{0B}\n\nRefs: #1\u{0C}",
    ]

    static let unusual: [String] = [
        "feat: crlf\r\n\r\nBREAKING CHANGE: y\r\n", "feat(a b): ünïcödé déscription ✨", "fixup! feat: é",
        "feat: x\n\nBREAKING CHANGE: ü\u{301}\n", "Revert \"feat: x\u{301}\"", "fixup!\u{301} feat: x", "\r\nfeat: x",
        "feat: x\r", "feat\u{301}: x", "\u{FEFF}feat: bom", "feat: x\n\nRefs: #1\r\n", "feat: seven.\r", "feat: 8 bytes \r\n\n", "feat: high byte after 8 \u{7F}é",
    ]

    @Test(arguments: usual + unusual)
    func sameAsTheGeneralPath(_ message: String) {
        var classifiers = Self.rules.map(ASCIIClassifier.init(rules:))
        Self.expectSame(message, classifiers: &classifiers)
    }

    @Test func theUsualMessageTakesTheBytePath() {
        for message in ["feat: add the thing\n", "fix(api)!: x\n\nbody\n\nBREAKING CHANGE: y\nRefs: #1\n", "Merge branch 'x'",
                        "chore: bump\n\nReviewed-by: A <a@example.com>\n", "feat:  spaced"] {
            #expect(Self.takesFastPath(message), "\(message.debugDescription)")
        }
        for message in ["feat: ünïcödé", "feat: x\r\n", "Revert \"feat: x\"", "revert: x", "\u{0B}\nfeat: x"] {
            #expect(!Self.takesFastPath(message), "\(message.debugDescription)")
        }
    }

    /// A classifier remembers the bump of each type as written: `FEAT` and `feat` may differ (keys set after `init`
    /// are not lowercased), types longer than 8 bytes are not remembered, and each answer is the rules'.
    @Test func rememberedTypesKeepTheRulesAnswer() {
        var rules = ReleaseRules(bumpForType: ["feat": .minor, "refactoring": .patch])
        rules.bumpForType["FEAT"] = .major
        rules.bumpForType["Fix"] = .patch
        var classifier = ASCIIClassifier(rules: rules)
        for _ in 0..<2 {
            for message in ["feat: a", "FEAT: b", "Feat: c", "fix: d", "FIX: e", "refactoring: f", "REFACTORING: g",
                            "featu: h", "fea: i", "docs: j"] {
                let expected = CommitAnalyzer.classify(RawCommit(sha: Self.hex, message: message), rules: rules)
                let actual = classifier.classify(message: message, parentCount: 1, id: Self.id)
                #expect(actual == expected && actual.bump == rules.bump(forType: String(message.prefix { $0 != ":" })),
                        "\(message)")
            }
        }
    }

    /// The word-at-a-time searches agree with a byte-by-byte one at every offset and length.
    @Test func wordSearchesFindWhatABytewiseSearchFinds() {
        var state: UInt64 = 7
        for _ in 0..<400 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let length = Int(state >> 58)
            var bytes: [UInt8] = (0..<length).map { k in [0x61, 0x0A, 0x01, 0x0B, 0x09, 0x0D, 0x8A, 0x7F][Int((state >> UInt64(k % 50)) & 7)] }
            if state & 1 == 0 { bytes = bytes.map { $0 & 0x7F == 0x0D ? 0x62 : $0 & 0x7F } }
            bytes.withUnsafeBufferPointer { buffer in
                for start in 0...length {
                    #expect(ASCIIClassifier.index(of: 0x0A, in: buffer, from: start)
                            == bytes[start...].firstIndex(of: 0x0A), "\(bytes) from \(start)")
                }
                #expect(ASCIIClassifier.isASCIIWithoutCR(buffer) == !bytes.contains { $0 >= 0x80 || $0 == 0x0D }, "\(bytes)")
            }
        }
    }

    /// Messages spliced from the syntax the parser branches on, seeded: any difference is a bug in one of the paths.
    @Test func sameOnGeneratedMessages() {
        let pieces = ["feat", "fix", "FEAT", "revert", "(", ")", "(ui)", "!", ": ", ":", " ", "  ", "\t", "\n", "\n\n",
                      "x", "body text", "BREAKING CHANGE", "BREAKING CHANGE: ", "BREAKING-CHANGE:", "Refs #", "Refs: ",
                      "Token-1: v", "fixup! ", "squash! ", "Revert \"", "\"", "This reverts commit ", "0123456", "\u{0B}",
                      "\u{0C}", "\r", "é", "\u{301}"]
        var state: UInt64 = 20_261_130
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        var fast = 0
        var classifiers = Self.rules.map(ASCIIClassifier.init(rules:))
        for _ in 0..<3_000 {
            var message = ""
            for _ in 0..<(1 + next(14)) { message += pieces[next(pieces.count)] }
            Self.expectSame(message, classifiers: &classifiers)
            if Self.takesFastPath(message) { fast += 1 }
        }
        #expect(fast > 500)
    }
}
