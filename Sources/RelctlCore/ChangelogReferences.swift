/// The issues a commit message closes, as GitHub and GitLab read them: a line of the body or the footers that starts
/// with a closing keyword (`close`, `closes`, `closed`, `fix`, `fixes`, `fixed`, `resolve`, `resolves`, `resolved`,
/// any case, an optional `:`) followed by `#12` references (`Closes #12`, `Fixes: #12, #13`, `Resolves #12 and #14`).
/// References to other repositories (`acme/other#12`) and URLs are left out: they are not this repository's issues.
public enum IssueReferences {
    static let keywords: Set<String> = ["close", "closes", "closed", "fix", "fixes", "fixed", "resolve", "resolves", "resolved"]

    /// The issue numbers `message` closes, in the order written, each once. The first line (the header) is not read:
    /// `fix: …` there is the commit's type.
    public static func closed(in message: String) -> [Int] {
        // No `#` after the header: nothing to find (most commits), known without splitting lines.
        guard let firstBreak = message.utf8.firstIndex(of: 0x0A),
              message.utf8[firstBreak...].contains(0x23) else { return [] }
        var numbers: [Int] = []
        for line in message[firstBreak...].split(whereSeparator: \.isNewline) {
            var rest = line.drop(while: { $0 == " " || $0 == "\t" })
            let word = rest.prefix(while: \.isLetter)
            guard !word.isEmpty, keywords.contains(word.lowercased()) else { continue }
            rest = rest.dropFirst(word.count)
            if rest.first == ":" { rest = rest.dropFirst() }
            guard rest.first == " " || rest.first == "\t" || rest.first == "#" else { continue }
            for token in rest.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "," }) {
                if token.lowercased() == "and" { continue }
                var reference = token
                while let last = reference.last, last == "." || last == ";" || last == ")" { reference.removeLast() }
                guard reference.first == "#", reference.count > 1, reference.count <= 10,
                      reference.dropFirst().allSatisfy(\.isASCIIDigit), let number = Int(reference.dropFirst()),
                      number > 0 else { break }
                if !numbers.contains(number) { numbers.append(number) }
            }
        }
        return numbers
    }
}

extension RemoteLinks {
    /// `text` (a commit description) with its pull-request references linked: `(#123)`, as GitHub's squash merges
    /// write them, becomes `([#123](…/pull/123))`; on GitLab `(!123)` links to `…/-/merge_requests/123` and `(#123)`
    /// to the issue `…/-/issues/123`. Any other text stays as it is, byte for byte.
    public func linkingReferences(in text: String) -> String {
        // No `#` and no `!`: nothing to link (most descriptions), known byte-wise.
        guard text.utf8.contains(where: { $0 == 0x23 || $0 == 0x21 }) else { return text }
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 64)
        var index = 0
        while index < bytes.count {
            if bytes[index] == 0x28, index + 3 < bytes.count, bytes[index + 1] == 0x23 || bytes[index + 1] == 0x21 {
                let sigil = bytes[index + 1]
                var end = index + 2
                while end < bytes.count, bytes[end] >= 0x30, bytes[end] <= 0x39 { end += 1 }
                let digits = end - index - 2
                if digits > 0, digits <= 10, end < bytes.count, bytes[end] == 0x29, bytes[index + 2] != 0x30,
                   sigil == 0x23 || forge == .gitlab {
                    let number = String(decoding: bytes[(index + 2)..<end], as: UTF8.self)
                    let url: String
                    if forge == .github {
                        url = pullRequestURL(number)
                    } else {
                        url = sigil == 0x21 ? pullRequestURL(number) : issueURL(number)
                    }
                    out += Array("([\(sigil == 0x21 ? "!" : "#")\(number)](\(url)))".utf8)
                    index = end + 1
                    continue
                }
            }
            out.append(bytes[index])
            index += 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `, closes [#12](…/issues/12) [#13](…)`, the conventional-changelog form; empty without issues.
    public func closesSuffix(_ issues: [Int]) -> String {
        guard !issues.isEmpty else { return "" }
        return ", closes " + issues.map { "[#\($0)](\(issueURL(String($0))))" }.joined(separator: " ")
    }
}
