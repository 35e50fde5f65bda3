import Foundation
import RelctlTestSupport

/// Test-only keys made with the `openssl` CLI at test time (an RSA key for a Google service account, a P-256 key
/// for App Store Connect), and a check of a JWT's signature with the public key, through `openssl dgst -verify`:
/// the fake token endpoint and the fake App Store Connect accept only tokens the key really signed.
final class StoreTestKeys: @unchecked Sendable {
    let folder: String
    var rsaKey: String { folder + "/service-account.pem" }
    var rsaPublic: String { folder + "/service-account.pub.pem" }
    var ecKey: String { folder + "/AuthKey_TEST123456.p8" }
    var ecPublic: String { folder + "/AuthKey.pub.pem" }

    init() throws {
        folder = try makeTempDirectory(prefix: "relctl-store-keys")
        for (key, args) in [(rsaKey, ["-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048"]),
                            (ecKey, ["-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256"])] {
            let made = try runProcess("/usr/bin/openssl", ["genpkey"] + args + ["-out", key])
            guard made.status == 0 else { throw CommandFailed(description: "openssl genpkey: \(made.stderr)") }
            chmod(key, 0o600)
        }
        for (key, pub) in [(rsaKey, rsaPublic), (ecKey, ecPublic)] {
            let made = try runProcess("/usr/bin/openssl", ["pkey", "-in", key, "-pubout", "-out", pub])
            guard made.status == 0 else { throw CommandFailed(description: "openssl pkey: \(made.stderr)") }
        }
    }

    deinit { try? FileManager.default.removeItem(atPath: folder) }

    /// A service account's key file for the fake token endpoint at `tokenURI`, mode 0600.
    func serviceAccountFile(tokenURI: String, mode: mode_t = 0o600) throws -> String {
        let pem = try String(contentsOfFile: rsaKey, encoding: .utf8)
        let object: [String: Any] = ["type": "service_account", "project_id": "tidewater-prod", "private_key_id": "0123abcd",
                                     "private_key": pem, "client_email": "relctl@tidewater-prod.iam.gserviceaccount.com",
                                     "client_id": "1234567890", "token_uri": tokenURI]
        let path = folder + "/service-account-\(UUID().uuidString.prefix(8)).json"
        try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: path))
        chmod(path, mode)
        return path
    }

    var p8: String { (try? String(contentsOfFile: ecKey, encoding: .utf8)) ?? "" }

    /// The JWT's header and claims, when its signature verifies with `publicKey` (ES256: r‖s turned into DER first).
    func verified(_ jwt: String, publicKey: String, es256: Bool) -> (header: [String: Any], claims: [String: Any])? {
        let parts = jwt.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, let signature = Self.base64URLDecoded(parts[2]),
              let header = Self.base64URLDecoded(parts[0]).flatMap({ try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }),
              let claims = Self.base64URLDecoded(parts[1]).flatMap({ try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }) else { return nil }
        if es256 && signature.count != 64 { return nil }
        let id = UUID().uuidString
        let input = folder + "/input-\(id)", sig = folder + "/sig-\(id)"
        defer { try? FileManager.default.removeItem(atPath: input); try? FileManager.default.removeItem(atPath: sig) }
        do {
            try Data((parts[0] + "." + parts[1]).utf8).write(to: URL(fileURLWithPath: input))
            try (es256 ? Self.der(raw: [UInt8](signature)) : signature).write(to: URL(fileURLWithPath: sig))
            let result = try runProcess("/usr/bin/openssl", ["dgst", "-sha256", "-verify", publicKey, "-signature", sig, input])
            return result.status == 0 ? (header, claims) : nil
        } catch {
            return nil
        }
    }

    static func base64URLDecoded(_ text: String) -> Data? {
        var base = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base.count % 4 != 0 { base += "=" }
        return Data(base64Encoded: base)
    }

    /// ECDSA r‖s (32 + 32 bytes) as DER `SEQUENCE { INTEGER r, INTEGER s }`, for openssl's verification.
    static func der(raw: [UInt8]) -> Data {
        func integer(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
            var value = Array(bytes.drop { $0 == 0 })
            if value.isEmpty { value = [0] }
            if value[0] & 0x80 != 0 { value.insert(0, at: 0) }
            return [0x02, UInt8(value.count)] + value
        }
        let body = integer(raw[0..<32]) + integer(raw[32..<64])
        return Data([0x30, UInt8(body.count)] + body)
    }
}

/// A `curl` on PATH that writes its argv (one argument a line) to a log, then runs the real curl: a test fails if a
/// token, a JWT or a key were on a child's command line (what `/proc/<pid>/cmdline` shows other local users).
struct RecordingCurl {
    let folder: String
    var log: String { folder + "/argv.log" }

    init() throws {
        folder = try makeTempDirectory(prefix: "relctl-curl")
        try writeExecutable("#!/bin/sh\nprintf '%s\\n' \"$@\" >> '\(folder)/argv.log'\nprintf -- '---\\n' >> '\(folder)/argv.log'\nexec /usr/bin/curl \"$@\"\n",
                            to: folder + "/curl")
    }

    var path: String { folder + ":/usr/bin:/bin" }
    var recorded: String { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }
    func remove() { try? FileManager.default.removeItem(atPath: folder) }
}
