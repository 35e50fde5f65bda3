/// A deterministic 40-hex commit sha whose short form starts with `prefix` (zeros after it).
public func sha(_ prefix: String) -> String {
    prefix + String(repeating: "0", count: 40 - prefix.count)
}
