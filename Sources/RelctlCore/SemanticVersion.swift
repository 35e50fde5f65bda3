#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One dot-separated identifier of a SemVer pre-release (`alpha`, `1`, `x-y`).
public enum PrereleaseIdentifier: Hashable, Sendable, Comparable, CustomStringConvertible {
    case numeric(UInt64)
    case alphanumeric(String)

    public var description: String {
        switch self {
        case .numeric(let value): String(value)
        case .alphanumeric(let text): text
        }
    }

    /// SemVer 2.0.0 §11.4: numeric identifiers compare numerically, alphanumeric ones
    /// lexically in ASCII order, and numeric identifiers are lower than alphanumeric ones.
    public static func < (lhs: PrereleaseIdentifier, rhs: PrereleaseIdentifier) -> Bool {
        switch (lhs, rhs) {
        case let (.numeric(a), .numeric(b)): a < b
        case (.numeric, .alphanumeric): true
        case (.alphanumeric, .numeric): false
        case let (.alphanumeric(a), .alphanumeric(b)): a.utf8.lexicographicallyPrecedes(b.utf8)
        }
    }
}

/// A strict SemVer 2.0.0 version (<https://semver.org/spec/v2.0.0.html>).
///
/// Equality (`==`, `hash`) is structural and includes build metadata, whereas `<` is SemVer
/// precedence, which ignores build metadata. Consequently `1.0.0+a` and `1.0.0+b` are neither
/// equal nor ordered; sorting is still well defined (a strict weak ordering) and keeps
/// such versions adjacent. Use ``precedence(comparedTo:)`` or ``hasSamePrecedence(as:)``
/// when build metadata must be ignored for equality too.
public struct SemanticVersion: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var major: UInt64
    public var minor: UInt64
    public var patch: UInt64
    public var prerelease: [PrereleaseIdentifier]
    public var build: [String]

    /// Builds a version from its parts. The parts are not validated: identifiers are
    /// expected to be non-empty and made of `[0-9A-Za-z-]` (see ``isValid``).
    public init(major: UInt64, minor: UInt64, patch: UInt64,
                prerelease: [PrereleaseIdentifier] = [], build: [String] = []) {
        self.major = major
        self.minor = minor
        self.patch = patch
        self.prerelease = prerelease
        self.build = build
    }

    /// Parses a strict SemVer 2.0.0 version; `nil` when `text` is not one.
    public init?(_ text: String) {
        guard let version = try? Self.parse(text) else { return nil }
        self = version
    }

    /// Parses a strict SemVer 2.0.0 version: no `v` prefix, no surrounding whitespace,
    /// exactly three numeric core parts without leading zeros, non-empty pre-release and
    /// build identifiers of `[0-9A-Za-z-]`, numeric pre-release identifiers without leading
    /// zeros, and every number within `UInt64`.
    /// The start of every message `parse(text)` throws, `invalid semantic version "<text>": `; the short reason
    /// follows it.
    static func errorPrefix(_ text: String) -> String { "invalid semantic version \"\(text)\": " }

    /// The short reason `text` is not a strict SemVer 2.0.0 version (`leading zero in minor`), for a caller that
    /// words the error its own way; nil when it is one.
    public static func reason(notVersion text: String) -> String? {
        do {
            _ = try parse(text)
            return nil
        } catch {
            return String(error.message.dropFirst(errorPrefix(text).count))
        }
    }

    public static func parse(_ text: String) throws(Problem) -> SemanticVersion {
        var parser = Parser(text: text)
        return try parser.parse()
    }

    /// `true` when the version has no pre-release identifiers.
    public var isStable: Bool { prerelease.isEmpty }

    /// `true` when every identifier satisfies SemVer 2.0.0 (useful for memberwise-built values).
    public var isValid: Bool { SemanticVersion(description) == self }

    /// The version incremented by `bump`.
    ///
    /// The bump always applies to the core numbers and drops pre-release and build metadata:
    /// `1.2.3-rc.1` bumped by `.patch` is `1.2.4` (not `1.2.3`), by `.minor` `1.3.0`,
    /// by `.major` `2.0.0`. `.none` returns the version unchanged (metadata included).
    /// Traps when the incremented number would overflow `UInt64`; use ``checkedBumped(_:)``
    /// to get `nil` instead.
    public func bumped(_ bump: Bump) -> SemanticVersion {
        guard let result = checkedBumped(bump) else {
            preconditionFailure("version \(self) cannot be bumped (\(bump)): UInt64 overflow")
        }
        return result
    }

    /// Like ``bumped(_:)`` but `nil` when the incremented number would overflow `UInt64`.
    public func checkedBumped(_ bump: Bump) -> SemanticVersion? {
        switch bump {
        case .none:
            return self
        case .patch:
            guard patch < .max else { return nil }
            return SemanticVersion(major: major, minor: minor, patch: patch + 1)
        case .minor:
            guard minor < .max else { return nil }
            return SemanticVersion(major: major, minor: minor + 1, patch: 0)
        case .major:
            guard major < .max else { return nil }
            return SemanticVersion(major: major + 1, minor: 0, patch: 0)
        }
    }

    /// SemVer 2.0.0 precedence (§11); build metadata is ignored.
    public func precedence(comparedTo other: SemanticVersion) -> ComparisonResult {
        if major != other.major { return major < other.major ? .orderedAscending : .orderedDescending }
        if minor != other.minor { return minor < other.minor ? .orderedAscending : .orderedDescending }
        if patch != other.patch { return patch < other.patch ? .orderedAscending : .orderedDescending }
        // A pre-release version has lower precedence than the associated normal version.
        switch (prerelease.isEmpty, other.prerelease.isEmpty) {
        case (true, true): return .orderedSame
        case (true, false): return .orderedDescending
        case (false, true): return .orderedAscending
        case (false, false): break
        }
        for (a, b) in zip(prerelease, other.prerelease) where a != b {
            return a < b ? .orderedAscending : .orderedDescending
        }
        if prerelease.count == other.prerelease.count { return .orderedSame }
        // A larger set of pre-release fields wins when all preceding ones are equal.
        return prerelease.count < other.prerelease.count ? .orderedAscending : .orderedDescending
    }

    /// `true` when both versions have the same precedence (equal up to build metadata).
    public func hasSamePrecedence(as other: SemanticVersion) -> Bool {
        precedence(comparedTo: other) == .orderedSame
    }

    public static func < (lhs: SemanticVersion, rhs: SemanticVersion) -> Bool {
        lhs.precedence(comparedTo: rhs) == .orderedAscending
    }

    public var description: String {
        var text = "\(major).\(minor).\(patch)"
        if !prerelease.isEmpty {
            text += "-" + prerelease.map(\.description).joined(separator: ".")
        }
        if !build.isEmpty {
            text += "+" + build.joined(separator: ".")
        }
        return text
    }
}

// MARK: - Parsing

extension SemanticVersion {
    private struct Parser {
        let text: String
        let bytes: [UInt8]
        var index = 0

        init(text: String) {
            self.text = text
            self.bytes = Array(text.utf8)
        }

        /// Why `text` is not a strict SemVer 2.0.0 version: `invalid semantic version "<text>": <reason>`, the reason short
        /// (e.g. `leading zero in minor`).
        func fail(_ reason: String) -> Problem {
            Problem(SemanticVersion.errorPrefix(text) + reason)
        }

        mutating func parse() throws(Problem) -> SemanticVersion {
            if bytes.isEmpty { throw fail("empty version") }
            let major = try number("major")
            try expectDot(after: "major")
            let minor = try number("minor")
            try expectDot(after: "minor")
            let patch = try number("patch")
            var prerelease: [PrereleaseIdentifier] = []
            var build: [String] = []
            if index < bytes.count, bytes[index] == UInt8(ascii: "-") {
                index += 1
                prerelease = try identifiers(kind: "pre-release", terminator: UInt8(ascii: "+")).map { (identifier) throws(Problem) in
                    try prereleaseIdentifier(identifier)
                }
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") {
                index += 1
                build = try identifiers(kind: "build", terminator: nil).map { String(decoding: $0, as: UTF8.self) }
            }
            if index < bytes.count {
                throw fail("unexpected character \(describe(bytes[index])) at offset \(index)")
            }
            return SemanticVersion(major: major, minor: minor, patch: patch,
                                   prerelease: prerelease, build: build)
        }

        mutating func expectDot(after part: String) throws(Problem) {
            guard index < bytes.count else { throw fail("missing \(part == "major" ? "minor" : "patch") version") }
            guard bytes[index] == UInt8(ascii: ".") else {
                throw fail("unexpected character \(describe(bytes[index])) after \(part)")
            }
            index += 1
        }

        mutating func number(_ part: String) throws(Problem) -> UInt64 {
            let start = index
            while index < bytes.count, bytes[index].isASCIIDigit { index += 1 }
            let digits = bytes[start..<index]
            if digits.isEmpty {
                if start == 0, start < bytes.count, bytes[start] == UInt8(ascii: "v") || bytes[start] == UInt8(ascii: "V") {
                    throw fail("\"v\" prefix is not part of a semantic version")
                }
                throw fail("missing \(part) version")
            }
            if digits.count > 1, digits.first == UInt8(ascii: "0") { throw fail("leading zero in \(part)") }
            guard let value = parseUInt64(digits) else { throw fail("\(part) overflows UInt64") }
            return value
        }

        /// Reads dot-separated identifiers of `[0-9A-Za-z-]` up to `terminator` or the end.
        mutating func identifiers(kind: String, terminator: UInt8?) throws(Problem) -> [ArraySlice<UInt8>] {
            var result: [ArraySlice<UInt8>] = []
            while true {
                let start = index
                while index < bytes.count, isIdentifierByte(bytes[index]) { index += 1 }
                let atSeparator = index == bytes.count || bytes[index] == UInt8(ascii: ".") || bytes[index] == terminator
                guard atSeparator else {
                    throw fail("invalid character \(describe(bytes[index])) in \(kind) identifier")
                }
                if start == index { throw fail("empty \(kind) identifier") }
                result.append(bytes[start..<index])
                guard index < bytes.count, bytes[index] == UInt8(ascii: ".") else { return result }
                index += 1
            }
        }

        func prereleaseIdentifier(_ identifier: ArraySlice<UInt8>) throws(Problem) -> PrereleaseIdentifier {
            if identifier.allSatisfy(\.isASCIIDigit) {
                if identifier.count > 1, identifier.first == UInt8(ascii: "0") {
                    throw fail("leading zero in numeric pre-release identifier")
                }
                guard let value = parseUInt64(identifier) else {
                    throw fail("numeric pre-release identifier overflows UInt64")
                }
                return .numeric(value)
            }
            return .alphanumeric(String(decoding: identifier, as: UTF8.self))
        }

        func describe(_ byte: UInt8) -> String {
            if byte >= 0x21, byte < 0x7F { return "\"\(Character(Unicode.Scalar(byte)))\"" }
            return "0x" + String(byte, radix: 16, uppercase: true)
        }
    }
}


@inline(__always) private func isIdentifierByte(_ byte: UInt8) -> Bool {
    byte.isASCIIDigit || byte.isASCIILetter || byte == 0x2D
}

private func parseUInt64(_ digits: ArraySlice<UInt8>) -> UInt64? {
    var value: UInt64 = 0
    for byte in digits {
        let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
        let (sum, overflow2) = times10.addingReportingOverflow(UInt64(byte - 0x30))
        if overflow1 || overflow2 { return nil }
        value = sum
    }
    return value
}
