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
    /// all, forced or not.
    public static func listing(fromResponse text: String) -> StoreListing {
        guard let response = try? GateJSON.parse(text), case .array(let results)? = response["results"],
            let first = results.first, case .string(let version)? = first["version"],
            GateVersion(version).hasNumber
        else { return .unavailable }
        var url: String?
        if case .string(let page)? = first["trackViewUrl"], !page.isEmpty { url = page }
        return .listed(version: GateVersion(version), url: url)
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
