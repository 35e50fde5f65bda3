/// Apple's public App Store lookup (`/lookup?bundleId=…&country=…`): the request to make and how to read its
/// answer into a ``StoreListing``. The library makes no network call; the app or `relctl` does.
public enum AppStoreLookup {
    public static let defaultBaseURL = "https://itunes.apple.com"

    /// The lookup URL for `bundleID` in `country` (an ISO 3166 code such as `us`; Apple's default store when
    /// `nil`). `baseURL` lets tests point at a local server.
    public static func requestURL(bundleID: String, country: String? = nil, baseURL: String = defaultBaseURL) -> String {
        var base = baseURL
        while base.hasSuffix("/") { base.removeLast() }
        var url = "\(base)/lookup?bundleId=\(percentEncoded(bundleID))"
        if let country, !country.isEmpty {
            url += "&country=\(percentEncoded(GateText.asciiLowercased(country)))"
        }
        return url
    }

    /// The listing in a lookup response: the first result's `version` and `trackViewUrl`. A response that does
    /// not parse, lists no result, or whose result has no version is ``StoreListing/unavailable``: no prompt at
    /// all, forced or not. With `bundleID`, only a result for that app counts (its `bundleId`, compared without
    /// regard to ASCII case, as the lookup itself does): an answer about another app lists nothing. A version that
    /// is not plain text (``isPlainVersion(_:)``) is never read: the listing is unavailable.
    public static func listing(fromResponse text: String, bundleID: String? = nil) -> StoreListing {
        guard let response = try? GateJSON.parse(text), case .array(let results)? = response["results"],
            let first = results.first(where: { bundleID == nil || matches($0, bundleID!) }),
            case .string(let version)? = first["version"], isPlainVersion(version),
            GateVersion(version).hasNumber
        else { return .unavailable }
        var url: String?
        if case .string(let page)? = first["trackViewUrl"], !page.isEmpty { url = page }
        return .listed(version: GateVersion(version), url: url)
    }

    /// The `bundleId` of every result in a lookup response, in order (for a message naming the app it is about).
    public static func bundleIDs(inResponse text: String) -> [String] {
        guard let response = try? GateJSON.parse(text), case .array(let results)? = response["results"] else { return [] }
        return results.compactMap { result in
            if case .string(let id)? = result["bundleId"] { return id }
            return nil
        }
    }

    /// The `version` the response's result for `bundleID` holds, as written, when it is not plain text.
    public static func unreadableVersion(inResponse text: String, bundleID: String) -> String? {
        guard let response = try? GateJSON.parse(text), case .array(let results)? = response["results"],
            let first = results.first(where: { matches($0, bundleID) }), case .string(let version)? = first["version"],
            !isPlainVersion(version)
        else { return nil }
        return version
    }

    /// A version a store lists is short printable text: no control character (C0, DEL, C1: a terminal escape such
    /// as `3.0.0\u{1B}]0;…\u{07}` is not a version), at most 64 characters.
    public static func isPlainVersion(_ version: String) -> Bool {
        version.unicodeScalars.count <= 64
            && !version.unicodeScalars.contains { $0.value < 0x20 || ($0.value >= 0x7F && $0.value < 0xA0) }
    }

    private static func matches(_ result: GateJSON, _ bundleID: String) -> Bool {
        guard case .string(let id)? = result["bundleId"] else { return false }
        return GateText.asciiLowercased(id) == GateText.asciiLowercased(bundleID)
    }

    private static func percentEncoded(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF")
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                out.unicodeScalars.append(UnicodeScalar(byte))
            default:
                out += "%"
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0xF)])
            }
        }
        return out
    }
}
