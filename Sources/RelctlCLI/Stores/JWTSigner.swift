import Foundation
import RelctlCore
import CLibCrypto

/// Signs the JSON Web Tokens the stores' APIs take, through OpenSSL's libcrypto (no cryptography of relctl's own):
/// RS256 for a Google service account's token exchange, ES256 for App Store Connect. The private key is read from
/// PEM text in memory and freed when signing ends; nothing is written anywhere.
enum JWTSigner {
    enum Algorithm: String {
        case rs256 = "RS256"
        case es256 = "ES256"
    }

    /// `header.claims.signature`, each part base64url without padding. `header` and `claims` are JSON objects
    /// written with sorted keys (so the same input gives the same token). A problem says what is wrong with the key,
    /// never the key.
    static func token(algorithm: Algorithm, keyID: String? = nil, claims: [String: Any], privateKeyPEM: String) throws(Problem) -> String {
        var header: [String: Any] = ["alg": algorithm.rawValue, "typ": "JWT"]
        if let keyID { header["kid"] = keyID }
        guard let headerData = try? JSONSerialization.data(withJSONObject: header, options: [.sortedKeys]),
              let claimsData = try? JSONSerialization.data(withJSONObject: claims, options: [.sortedKeys, .withoutEscapingSlashes]) else {
            throw Problem("the token's claims cannot be written as JSON")
        }
        let input = base64URL(headerData) + "." + base64URL(claimsData)
        let signature = try sign(Array(input.utf8), algorithm: algorithm, privateKeyPEM: privateKeyPEM)
        return input + "." + base64URL(Data(signature))
    }

    static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// The signature of `message` with the PEM key: PKCS#1 v1.5 with SHA-256 (RS256), or ECDSA P-256 with SHA-256
    /// as the 64 bytes r‖s that JWS takes (ES256; libcrypto gives DER, converted here through its own parser).
    static func sign(_ message: [UInt8], algorithm: Algorithm, privateKeyPEM: String) throws(Problem) -> [UInt8] {
        let key = try readKey(privateKeyPEM)
        defer { EVP_PKEY_free(key) }
        let type = EVP_PKEY_get_base_id(key)
        switch algorithm {
        case .rs256 where type != EVP_PKEY_RSA:
            throw Problem("the private key is not an RSA key, and a service account's key is")
        case .es256 where type != EVP_PKEY_EC || EVP_PKEY_get_bits(key) != 256:
            throw Problem("the private key is not a P-256 elliptic-curve key, and an App Store Connect API key (.p8) is")
        default:
            break
        }
        guard let context = EVP_MD_CTX_new() else { throw Problem("libcrypto could not allocate a signing context") }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestSignInit(context, nil, EVP_sha256(), nil, key) == 1 else {
            throw Problem("libcrypto refused the key for signing (\(lastError()))")
        }
        var length = 0
        guard message.withUnsafeBufferPointer({ EVP_DigestSign(context, nil, &length, $0.baseAddress, $0.count) }) == 1 else {
            throw Problem("libcrypto could not sign (\(lastError()))")
        }
        var signature = [UInt8](repeating: 0, count: length)
        let signed = signature.withUnsafeMutableBufferPointer { out in
            message.withUnsafeBufferPointer { EVP_DigestSign(context, out.baseAddress, &length, $0.baseAddress, $0.count) }
        }
        guard signed == 1 else { throw Problem("libcrypto could not sign (\(lastError()))") }
        signature.removeSubrange(length...)
        return algorithm == .es256 ? try rawECDSA(der: signature) : signature
    }

    /// DER `SEQUENCE { r INTEGER, s INTEGER }` → r‖s, each 32 bytes big-endian, parsed by libcrypto.
    private static func rawECDSA(der: [UInt8]) throws(Problem) -> [UInt8] {
        let parsed: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            return d2i_ECDSA_SIG(nil, &cursor, buffer.count)
        }
        guard let parsed else { throw Problem("libcrypto's ECDSA signature could not be read") }
        defer { ECDSA_SIG_free(parsed) }
        var r: OpaquePointer?, s: OpaquePointer?
        ECDSA_SIG_get0(parsed, &r, &s)
        var raw = [UInt8](repeating: 0, count: 64)
        let written = raw.withUnsafeMutableBufferPointer { out in
            (BN_bn2binpad(r, out.baseAddress, 32), BN_bn2binpad(s, out.baseAddress! + 32, 32))
        }
        guard written.0 == 32, written.1 == 32 else { throw Problem("libcrypto's ECDSA signature is not a P-256 one") }
        return raw
    }

    /// A private key from PEM text (PKCS#8 `BEGIN PRIVATE KEY`, as both Google's and Apple's keys are, or the
    /// traditional RSA/EC forms). Never passes a password prompt on: an encrypted key is refused.
    private static func readKey(_ pem: String) throws(Problem) -> OpaquePointer {
        guard pem.contains("-----BEGIN") else {
            throw Problem("the private key is not PEM text (it has no -----BEGIN line)")
        }
        let bytes = Array(pem.utf8)
        let key: OpaquePointer? = bytes.withUnsafeBufferPointer { buffer in
            guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)) else { return nil }
            defer { BIO_free(bio) }
            // An empty password: an encrypted key fails instead of prompting on the terminal.
            return PEM_read_bio_PrivateKey(bio, nil, { _, _, _, _ in 0 }, nil)
        }
        guard let key else {
            ERR_clear_error()
            throw Problem("the private key cannot be read (not an unencrypted PEM private key)")
        }
        return key
    }

    private static func lastError() -> String {
        let code = ERR_get_error()
        ERR_clear_error()
        guard code != 0 else { return "no detail" }
        var buffer = [CChar](repeating: 0, count: 256)
        ERR_error_string_n(code, &buffer, buffer.count)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
