import Foundation
import RelctlCore

/// Keeps a `regex` entry from running without end. NSRegularExpression (ICU) backtracks, so a pattern like `(a+)+$`
/// takes time exponential in the length of a line it does not match. Two bounds:
///
/// - At config load, a group that holds nothing but one repeated item and is itself repeated (`(a+)+`, `(?:[0-9.]*)*`,
///   `(\d+){2,}`) is refused: it matches exactly what the item alone repeated matches, only exponentially slower.
/// - While matching, a step budget: ICU reports progress about once per position it tries and once per some ten
///   thousand backtracking steps; a pass may take the text's length plus `extraTicks(length)` reports, after which it
///   stops and the entry fails with the line of its pattern. A linear pattern needs a few hundred extra reports on
///   megabytes of text; the budget allows thousands (some tens of millions of steps, well under a second) plus a
///   share of the text's length, deterministic from one run to the next.
package enum RegexGuard {
    /// Progress reports allowed beyond one per position, for a text of `length` UTF-16 units.
    package static func extraTicks(_ length: Int) -> Int { 3_000 + length / 64 }

    /// The first repeated group that holds only a repeated item (`(a+)+`), as written in `pattern`; nil when none.
    package static func nestedRepetition(in pattern: String) -> String? {
        let range = NSRange(pattern.startIndex..., in: pattern)
        guard let match = nestedQuantifier.firstMatch(in: pattern, range: range), let found = Range(match.range, in: pattern) else { return nil }
        return String(pattern[found])
    }

    /// `(` with an optional `?:` or `?<name>`, one item (an escape, a class, `.` or a plain character) with an unbounded
    /// or many-times quantifier (lazy or not, possessive excluded), `)`, then again such a quantifier.
    private static let nestedQuantifier: NSRegularExpression = {
        let item = #"(?:\\.|\[\^?\]?(?:\\.|[^\]\\])*\]|[^()|\\\[\]{}*+?])"#
        let many = #"(?:[*+]|\{\d+,\d*\})"#
        // swiftlint:disable:next force_try
        return try! NSRegularExpression(pattern: #"\((?:\?:|\?<[A-Za-z][A-Za-z0-9]*>)?"# + item + many + #"\??\)"# + many)
    }()
}
