/// `relctl init`: whether an app's build numbers are derived from its version (`fromVersion`): Droidcon's iOS build
/// 60107 for 6.1.7 and Android versionCode 10003 for 1.0.3 follow `major*10000 + minor*100 + patch`. One-digit slots
/// (260 for 2.6.0) are not tried: too many hand-counted builds look like them. Every build the
/// files hold must equal the formula for its version, under one choice of slot widths, for at least two versions (an
/// iOS and an Android app released apart); a build below 100 (a fresh app at 0.0.1, build 1) proves nothing.
public enum BuildNumberGuess {
    /// Slot widths tried, the strategy's default first.
    static let candidates: [[Int]] = [[2, 2], [3, 3], [2, 3], [3, 2]]

    /// The `digits` every (version, build) pair follows; nil when a pair follows none, or there is none.
    public static func fromVersionDigits(_ pairs: [(version: String, build: String)]) -> [Int]? {
        // One version's build proves little (fixtures and hand-counted builds love 10203 for 1.2.3): two versions
        // whose builds both follow the formula do.
        guard Set(pairs.map(\.version)).count >= 2,
              pairs.allSatisfy({ ($0.build.isASCIIDigits) && (UInt64($0.build) ?? 0) >= 100 }) else { return nil }
        return candidates.first { digits in
            pairs.allSatisfy { pair in
                (try? BuildNumberPolicy.fromVersion(pair.version, digits: digits)).map { String($0) == pair.build } ?? false
            }
        }
    }

    /// The formula `digits` stand for, for a note: `major*10000 + minor*100 + patch` for `[2, 2]`.
    public static func formula(_ digits: [Int]) -> String {
        guard digits.count == 2 else { return "fromVersion \(digits)" }
        return "major*\(BuildNumberPolicy.pow10(digits[0] + digits[1])) + minor*\(BuildNumberPolicy.pow10(digits[1])) + patch"
    }
}
