import Testing
import RelctlCore

@Suite("Lexical paths")
struct LexicalPathTests {
    @Test func joinKeepsAbsolutePathsAndAddsOneSlash() {
        #expect(LexicalPath.join("/repo", "app.json") == "/repo/app.json")
        #expect(LexicalPath.join("/repo/", "app.json") == "/repo/app.json")
        #expect(LexicalPath.join("/repo", "/elsewhere/app.json") == "/elsewhere/app.json")
        #expect(LexicalPath.join("", "app.json") == "app.json")
    }

    @Test func normalizeResolvesDotsWithoutLeavingTheStart() {
        #expect(LexicalPath.normalize("./ios/../app.json") == "app.json")
        #expect(LexicalPath.normalize("/repo/./a//b/../c") == "/repo/a/c")
        #expect(LexicalPath.normalize("../app.json") == nil)
        #expect(LexicalPath.normalize("a/../../b") == nil)
    }

    @Test func relativeNamesAFileInsideTheRootAsGitDoes() {
        #expect(LexicalPath.relative("/repo/./app.json", to: "/repo") == "app.json")
        #expect(LexicalPath.relative("/repo/ios/../android/app/build.gradle", to: "/repo") == "android/app/build.gradle")
        #expect(LexicalPath.relative("/repo/../other/app.json", to: "/repo") == nil)
        #expect(LexicalPath.relative("/repository/app.json", to: "/repo") == nil)
        #expect(LexicalPath.relative("/repo", to: "/repo") == nil)
    }

    @Test func inRepositoryTakesRelativeAndAbsolutePaths() {
        #expect(LexicalPath.inRepository("./app.json", root: "/repo") == "app.json")
        #expect(LexicalPath.inRepository("/repo/CHANGELOG.md", root: "/repo") == "CHANGELOG.md")
        #expect(LexicalPath.inRepository("../shared/app.json", root: "/repo") == nil)
    }
}

@Suite("Strings joined by appending")
struct StringJoiningTests {
    @Test(arguments: [[], [""], ["a"], ["expo", "version"], ["", ""], ["a", "", "b"], ["é", "\u{301}x"]] as [[String]])
    func joinsAsTheLibraryDoes(_ parts: [String]) {
        #expect(parts.joinedByAppending(".") == parts.joined(separator: "."))
        #expect(parts.joinedByAppending("") == parts.joined())
        let substrings = parts.map { Substring($0) }
        #expect(substrings.joinedByAppending("/") == substrings.joined(separator: "/"))
    }
}
