/// A compare URL split around its two refs, so a changelog's own link style can be reused:
/// `https://github.com/o/r/compare/` `v1.1.0` `...` `v1.2.0` (GitHub, Gitea, Codeberg) or
/// `https://gitlab.com/g/r/-/compare/` `v1.1.0` `...` `v1.2.0` (GitLab).
struct CompareLink: Hashable, Sendable {
    /// Everything up to and including the last `compare/`.
    var base: String
    var from: String
    /// `...` or `..`, as written.
    var separator: String
    var to: String
    /// A query or fragment after `to`, kept as written.
    var suffix: String
    /// Where `from` stands in the URL, in UTF-8 bytes.
    var fromOffsets: Range<Int>

    /// `nil` when `url` has no `compare/<from>...<to>` (or `..`) part.
    init?(_ url: String) {
        guard let compare = url.ranges(of: "compare/").last else { return nil }
        let refs = url[compare.upperBound...]
        let end = refs.firstIndex(where: { $0 == "?" || $0 == "#" }) ?? refs.endIndex
        let pair = refs[..<end]
        guard let dots = pair.firstRange(of: "...") ?? pair.firstRange(of: "..") else { return nil }
        let from = pair[..<dots.lowerBound]
        let to = pair[dots.upperBound...]
        guard !from.isEmpty, !to.isEmpty else { return nil }
        base = String(url[..<compare.upperBound])
        self.from = String(from)
        separator = String(pair[dots])
        self.to = String(to)
        suffix = String(refs[end...])
        let start = base.utf8.count
        fromOffsets = start..<(start + from.utf8.count)
    }

    /// ``from`` as a ref name: `%XX` escapes decoded (`trail%201.0` is the tag `trail 1.0`).
    var fromRef: String {
        var bytes: [UInt8] = []
        var rest = from.utf8[...]
        while let byte = rest.popFirst() {
            if byte == UInt8(ascii: "%"), rest.count >= 2,
               let value = UInt8(String(decoding: rest.prefix(2), as: UTF8.self), radix: 16) {
                bytes.append(value)
                rest = rest.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The same style of link between two other refs (tags are percent-encoded like relctl's own links).
    func url(from: String, to: String) -> String {
        base + RemoteLinks.percentEncoded(from) + separator + RemoteLinks.percentEncoded(to) + suffix
    }

    /// The link style of a repository's forge, for a changelog that has no compare link of its own.
    init?(_ links: RemoteLinks) {
        self.init(links.compareURL(from: "a", to: "b"))
    }
}
