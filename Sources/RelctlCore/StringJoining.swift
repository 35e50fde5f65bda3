extension Array where Element == String {
    /// The strings with `separator` between them, as `joined(separator:)` gives them, appended one by one: the
    /// library's `joined` is not specialised for arrays of strings, and its first call costs the Swift runtime a scan
    /// of the binary's protocol conformances (`Array: Collection`, 0.28 million instructions) on every run.
    package func joinedByAppending(_ separator: String) -> String {
        var out = ""
        for (index, part) in enumerated() {
            if index > 0 { out += separator }
            out += part
        }
        return out
    }
}

extension Array where Element == Substring {
    /// The same for substrings.
    package func joinedByAppending(_ separator: String) -> String {
        var out = ""
        for (index, part) in enumerated() {
            if index > 0 { out += separator }
            out.append(contentsOf: part)
        }
        return out
    }
}
