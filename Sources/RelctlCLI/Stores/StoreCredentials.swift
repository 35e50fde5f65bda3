import RelctlCore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Where a store API's bearer token comes from: refreshed once when the API answers 401.
protocol BearerTokenSource: AnyObject {
    /// Names the credential for messages ("the App Store Connect API key ABC123"), never its secret.
    var name: String { get }
    /// The token; `refresh` asks for a new one (after a 401).
    func token(refresh: Bool) throws(HTTPFailure) -> String
    /// What to do when a fresh token is refused too.
    var refusedAdvice: String { get }
    /// Whether a new token can be had (a signed one can; a token given in the environment cannot).
    var canRefresh: Bool { get }
}


/// A key file's mode, warned about when group or others can read it.
enum KeyFilePermissions {
    static func warning(path: String, variable: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & 0o077 != 0 else { return nil }
        let mode = String(info.st_mode & 0o777, radix: 8)
        return "\(variable): the key file \(path) can be read by other users (mode \(mode)); restrict it: chmod 600 \(path)"
    }
}

/// App Store Connect: an ES256 JWT signed with the team's API key (`APP_STORE_CONNECT_KEY_ID`,
/// `APP_STORE_CONNECT_ISSUER_ID`, and `APP_STORE_CONNECT_KEY` holding the `.p8` text or `APP_STORE_CONNECT_KEY_PATH`
/// naming the file), audience `appstoreconnect-v1`, valid for 19 minutes (Apple takes at most 20).
final class AppStoreConnectCredentials: BearerTokenSource {
    static let keyIDVariable = "APP_STORE_CONNECT_KEY_ID"
    static let issuerVariable = "APP_STORE_CONNECT_ISSUER_ID"
    static let keyVariable = "APP_STORE_CONNECT_KEY"
    static let keyPathVariable = "APP_STORE_CONNECT_KEY_PATH"
    static let lifetime = 19 * 60

    let keyID: String
    let issuerID: String
    private let privateKey: String
    private var current: String?

    var name: String { "the App Store Connect API key \(keyID)" }
    var canRefresh: Bool { true }
    var refusedAdvice: String {
        "check \(Self.keyIDVariable), \(Self.issuerVariable) and the key (App Store Connect → Users and Access → Integrations → Team Keys): the key may have been revoked"
    }

    private init(keyID: String, issuerID: String, privateKey: String) {
        self.keyID = keyID
        self.issuerID = issuerID
        self.privateKey = privateKey
    }

    /// nil when none of the variables is set; an error when some are and the set is incomplete or unreadable.
    static func fromEnvironment(_ environment: [String: String], warning: (String) -> Void) throws(Problem) -> AppStoreConnectCredentials? {
        func value(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        let keyID = value(keyIDVariable), issuer = value(issuerVariable), key = value(keyVariable), keyPath = value(keyPathVariable)
        if keyID == nil, issuer == nil, key == nil, keyPath == nil { return nil }
        var missing: [String] = []
        if keyID == nil { missing.append(keyIDVariable) }
        if issuer == nil { missing.append(issuerVariable) }
        if key == nil, keyPath == nil { missing.append("\(keyVariable) or \(keyPathVariable)") }
        guard missing.isEmpty, let keyID, let issuer else {
            throw Problem("App Store Connect credentials are incomplete: \(missing.joined(separator: ", ")) \(missing.count == 1 ? "is" : "are") not set; set all of \(keyIDVariable), \(issuerVariable) and \(keyVariable) (the .p8 text) or \(keyPathVariable) (README, \"Stores and Remote Config\")")
        }
        var pem = key ?? ""
        if key == nil, let keyPath {
            guard let data = FileManager.default.contents(atPath: keyPath) else {
                throw Problem("\(keyPathVariable): cannot read the key file \(keyPath); check the path and its permissions")
            }
            if let message = KeyFilePermissions.warning(path: keyPath, variable: keyPathVariable) { warning(message) }
            pem = String(decoding: data, as: UTF8.self)
        }
        let credentials = AppStoreConnectCredentials(keyID: keyID, issuerID: issuer, privateKey: pem)
        // Signed once now, so a key that cannot sign is named before any request.
        do throws(HTTPFailure) {
            _ = try credentials.token(refresh: true)
        } catch {
            throw Problem("\(key != nil ? keyVariable : keyPathVariable): \(error.reason)")
        }
        return credentials
    }

    func token(refresh: Bool) throws(HTTPFailure) -> String {
        if let current, !refresh { return current }
        let now = Int(Date().timeIntervalSince1970)
        do throws(Problem) {
            let token = try JWTSigner.token(algorithm: .es256, keyID: keyID,
                                            claims: ["iss": issuerID, "aud": "appstoreconnect-v1", "iat": now, "exp": now + Self.lifetime],
                                            privateKeyPEM: privateKey)
            current = token
            return token
        } catch {
            throw HTTPFailure(url: "", reason: "\(Self.keyVariable): \(error.message)")
        }
    }
}

/// Google (Play and Remote Config): a service account's key (`GOOGLE_APPLICATION_CREDENTIALS`: relctl signs the
/// RS256 JWT and exchanges it at the key's `token_uri`), or a ready access token (`GOOGLE_OAUTH_ACCESS_TOKEN`).
final class GoogleCredentials: BearerTokenSource {
    static let keyFileVariable = "GOOGLE_APPLICATION_CREDENTIALS"
    static let tokenVariable = "GOOGLE_OAUTH_ACCESS_TOKEN"
    static let playScope = "https://www.googleapis.com/auth/androidpublisher"
    static let remoteConfigScope = "https://www.googleapis.com/auth/firebase.remoteconfig"

    private enum Kind {
        case serviceAccount(email: String, privateKey: String, tokenURI: String)
        case accessToken(String)
    }

    private let kind: Kind
    private let scopes: [String]
    private let environment: [String: String]
    private var current: String?

    var name: String {
        switch kind {
        case .serviceAccount(let email, _, _): return "the service account \(email) (\(Self.keyFileVariable))"
        case .accessToken: return "the access token in \(Self.tokenVariable)"
        }
    }

    var canRefresh: Bool {
        if case .serviceAccount = kind { return true }
        return false
    }

    var refusedAdvice: String {
        switch kind {
        case .serviceAccount: return "check that the service account's key in \(Self.keyFileVariable) is still valid (Google Cloud console → IAM → Service accounts → Keys)"
        case .accessToken: return "the token in \(Self.tokenVariable) has expired or was revoked: get a new one (gcloud auth print-access-token), or use a service account's key in \(Self.keyFileVariable), which relctl refreshes itself"
        }
    }

    private init(kind: Kind, scopes: [String], environment: [String: String]) {
        self.kind = kind
        self.scopes = scopes
        self.environment = environment
    }

    static func fromEnvironment(_ environment: [String: String], scopes: [String], warning: (String) -> Void) throws(Problem) -> GoogleCredentials? {
        if let path = environment[keyFileVariable], !path.isEmpty {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw Problem("\(keyFileVariable): cannot read the key file \(path); check the path and its permissions")
            }
            if let message = KeyFilePermissions.warning(path: path, variable: keyFileVariable) { warning(message) }
            guard let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
                throw Problem("\(keyFileVariable): \(path) is not JSON; it must be a service account's key file (Google Cloud console → IAM → Service accounts → Keys → Add key → JSON)")
            }
            guard object["type"] as? String == "service_account",
                  let email = object["client_email"] as? String, !email.isEmpty,
                  let key = object["private_key"] as? String, !key.isEmpty else {
                throw Problem("\(keyFileVariable): \(path) is not a service account's key (it needs \"type\": \"service_account\", \"client_email\" and \"private_key\"); create one: Google Cloud console → IAM → Service accounts → Keys → Add key → JSON")
            }
            let tokenURI = (object["token_uri"] as? String).flatMap { $0.isEmpty ? nil : $0 } ?? "https://oauth2.googleapis.com/token"
            do throws(HTTPFailure) {
                try StoreHTTP.checkAllowed(tokenURI, what: "the key's token_uri")
            } catch {
                throw Problem("\(keyFileVariable): \(error.reason), and \(path) has \"\(tokenURI)\"")
            }
            let credentials = GoogleCredentials(kind: .serviceAccount(email: email, privateKey: key, tokenURI: tokenURI),
                                                scopes: scopes, environment: environment)
            // A key that cannot sign is named before any request.
            do throws(Problem) {
                _ = try credentials.assertion(email: email, privateKey: key, tokenURI: tokenURI)
            } catch {
                throw Problem("\(keyFileVariable): the \"private_key\" of \(path): \(error.message)")
            }
            return credentials
        }
        if let token = environment[tokenVariable], !token.isEmpty {
            guard !token.contains(where: { $0.isWhitespace || $0.isNewline }) else {
                throw Problem("\(tokenVariable) holds white space, so it is not an access token; set it to the output of gcloud auth print-access-token")
            }
            return GoogleCredentials(kind: .accessToken(token), scopes: scopes, environment: environment)
        }
        return nil
    }

    private func assertion(email: String, privateKey: String, tokenURI: String) throws(Problem) -> String {
        let now = Int(Date().timeIntervalSince1970)
        return try JWTSigner.token(algorithm: .rs256, claims: ["iss": email, "scope": scopes.joined(separator: " "),
                                                               "aud": tokenURI, "iat": now, "exp": now + 3600],
                                   privateKeyPEM: privateKey)
    }

    func token(refresh: Bool) throws(HTTPFailure) -> String {
        switch kind {
        case .accessToken(let token):
            return token
        case .serviceAccount(let email, let privateKey, let tokenURI):
            if let current, !refresh { return current }
            let jwt: String
            do throws(Problem) {
                jwt = try assertion(email: email, privateKey: privateKey, tokenURI: tokenURI)
            } catch {
                throw HTTPFailure(url: tokenURI, reason: "\(Self.keyFileVariable): \(error.message)")
            }
            let body = StoreHTTP.formEncoded([("grant_type", "urn:ietf:params:oauth:grant-type:jwt-bearer"), ("assertion", jwt)])
            let response = try StoreHTTP.send(StoreHTTP.Request(method: "POST", url: tokenURI, body: body,
                                                                contentType: "application/x-www-form-urlencoded"),
                                              environment: environment)
            let object = (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any]
            guard response.status == 200, let token = object?["access_token"] as? String, !token.isEmpty else {
                let said = StoreAPIError.message(in: response.body).map { ": \($0)" } ?? ""
                throw HTTPFailure(url: tokenURI, reason: "the token exchange for \(name) answered HTTP \(response.status)\(said); \(refusedAdvice)")
            }
            current = token
            return token
        }
    }
}

/// The message in an API's error answer: Google's `{"error": {"message"}}` or `{"error_description"}`, Apple's
/// `{"errors": [{"title", "detail"}]}`; plain text only, one line, bounded.
enum StoreAPIError {
    static func message(in body: Data) -> String? {
        guard let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] else { return nil }
        var text: String?
        if let error = object["error"] as? [String: Any] {
            text = error["message"] as? String
        } else if let description = object["error_description"] as? String {
            text = description
        } else if let errors = object["errors"] as? [[String: Any]], let first = errors.first {
            text = [first["title"] as? String, first["detail"] as? String].compactMap { $0 }.joined(separator: ": ")
        }
        guard let text else { return nil }
        let line = String(text.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }.prefix(300))
        return line.isEmpty ? nil : line
    }
}

/// A request with a bearer token: a 401 gets a new token once; a 403 names the role the credential lacks.
struct AuthorizedClient {
    let credentials: BearerTokenSource
    let environment: [String: String]
    /// The service's name and the least role its credential needs, for a 403.
    let service: String
    let role: String

    func send(_ request: StoreHTTP.Request) throws(HTTPFailure) -> StoreHTTP.Response {
        var token = try credentials.token(refresh: false)
        var response = try StoreHTTP.send(authorized(request, token), environment: environment)
        if response.status == 401 && credentials.canRefresh {
            token = try credentials.token(refresh: true)
            response = try StoreHTTP.send(authorized(request, token), environment: environment)
            if response.status == 401 {
                throw HTTPFailure(url: request.url, reason: redact("HTTP 401: \(service) refused \(credentials.name), a fresh token too\(said(response)); \(credentials.refusedAdvice)", token))
            }
        } else if response.status == 401 {
            throw HTTPFailure(url: request.url, reason: redact("HTTP 401: \(service) refused \(credentials.name)\(said(response)); \(credentials.refusedAdvice)", token))
        }
        if response.status == 403 {
            throw HTTPFailure(url: request.url, reason: redact("HTTP 403: \(credentials.name) lacks the permission\(said(response)); it needs \(role)", token))
        }
        return response
    }

    private func authorized(_ request: StoreHTTP.Request, _ token: String) -> StoreHTTP.Request {
        var request = request
        request.headers.append(("Authorization", "Bearer \(token)"))
        return request
    }

    func said(_ response: StoreHTTP.Response) -> String {
        StoreAPIError.message(in: response.body).map { " (\($0))" } ?? ""
    }

    /// A message with the token removed, should a server have echoed it.
    func redact(_ text: String, _ token: String) -> String {
        token.count < 8 ? text : text.replacingOccurrences(of: token, with: "[token]")
    }

    /// A failure for any other status than the ones expected, with the API's own message.
    func unexpected(_ response: StoreHTTP.Response, url: String, doing: String) -> HTTPFailure {
        let token = (try? credentials.token(refresh: false)) ?? ""
        return HTTPFailure(url: url, reason: redact("HTTP \(response.status) while \(doing)\(said(response))", token))
    }
}
