/// Who may talk to the inspector, decided for each request before anything else: the
/// page can send actions into a running process, so only this machine's loopback, only a
/// page this inspector served (Origin), only under this inspector's name (Host: a page of
/// another site whose name was pointed at 127.0.0.1, DNS rebinding, is refused), and only
/// with the random token printed with the address. Nothing that acts is a GET.
package struct RequestGuard: Sendable {
    /// The token every request must carry: `?token=` or the `X-Storesh-Token` header.
    package let token: String
    /// The port the inspector listens on (Host and Origin must name it).
    package let port: Int

    /// What a request may do.
    package enum Verdict: Sendable, Equatable {
        case allowed
        /// Refused with an HTTP status (401, 403, 405, 415) and why, for the response body.
        case refused(status: Int, reason: String)
    }

    /// A guard for an inspector on `port` whose token is `token`.
    package init(token: String, port: Int) {
        self.token = token
        self.port = port
    }

    /// The verdict on one request. `headers` are looked up by lowercase name;
    /// `queryToken` is the `token` query parameter, if any.
    package func check(method: String, path: String, queryToken: String?, headers: [String: String]) -> Verdict {
        let names = ["127.0.0.1:\(port)", "localhost:\(port)"]
        guard let host = headers["host"]?.lowercased(), names.contains(host) else {
            return .refused(
                status: 403,
                reason:
                    "this inspector answers only to Host 127.0.0.1:\(port) or localhost:\(port), not '\(headers["host"] ?? "")'"
            )
        }
        if let origin = headers["origin"], !names.contains(where: { "http://\($0)" == origin.lowercased() }) {
            return .refused(status: 403, reason: "requests from another origin ('\(origin)') are refused")
        }
        if let site = headers["sec-fetch-site"], site != "same-origin", site != "none" {
            return .refused(status: 403, reason: "requests from another site (Sec-Fetch-Site: \(site)) are refused")
        }
        guard let given = headers["x-storesh-token"] ?? queryToken else {
            return .refused(
                status: 401, reason: "the inspector needs its token: open the address storesh printed (…/?token=…)")
        }
        guard Self.same(given, token) else {
            return .refused(status: 403, reason: "wrong token: open the address storesh printed")
        }
        let acts = path.hasPrefix("/api/operations/")
        switch method {
        case "GET", "HEAD":
            if acts { return .refused(status: 405, reason: "an operation is sent with POST, never GET") }
        case "POST":
            guard acts else { return .refused(status: 405, reason: "\(path) is read with GET") }
            guard Self.isJSON(headers["content-type"]) else {
                return .refused(
                    status: 415, reason: "an operation's arguments are a JSON object (Content-Type: application/json)")
            }
        default:
            return .refused(status: 405, reason: "the inspector takes GET and POST, not \(method)")
        }
        return .allowed
    }

    /// Whether a Content-Type is JSON: the media type `application/json` exactly (any case,
    /// spaces around it), parameters such as `; charset=utf-8` allowed. `application/jsonx`
    /// or `application/json-patch+json` are other types.
    static func isJSON(_ contentType: String?) -> Bool {
        guard let contentType else { return false }
        let type = contentType.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        let words = type.split(whereSeparator: { $0 == " " || $0 == "\t" })
        return words.count == 1 && words[0].lowercased() == "application/json"
    }

    /// Compares in time that does not depend on where the texts differ.
    static func same(_ given: String, _ expected: String) -> Bool {
        let a = Array(given.utf8)
        let b = Array(expected.utf8)
        var difference = UInt8(a.count == b.count ? 0 : 1)
        for index in 0..<b.count { difference |= (index < a.count ? a[index] : 0) ^ b[index] }
        return difference == 0
    }

    /// A new random token: 32 bytes from the system's generator, as hex.
    package static func newToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in
            let byte = UInt8.random(in: 0...255, using: &generator)
            return String(byte >> 4, radix: 16) + String(byte & 15, radix: 16)
        }.joined()
    }
}
