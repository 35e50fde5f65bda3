#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's environment, read straight from `environ`: Foundation's `ProcessInfo` costs more than the rest of
/// `relctl --version`.
package enum ProcessEnvironment {
    package static func current() -> [String: String] {
        var environment: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.utf8.firstIndex(of: UInt8(ascii: "=")) {
                let name = String(text[..<equals])
                // The first definition wins, as getenv and ProcessInfo do.
                if environment[name] == nil { environment[name] = String(text[text.index(after: equals)...]) }
            }
            entry += 1
        }
        return environment
    }
}
