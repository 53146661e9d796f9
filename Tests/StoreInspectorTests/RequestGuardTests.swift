import Testing

@testable import StoreInspector

/// Who may talk to the inspector: decided before anything runs.
@Suite struct RequestGuardTests {
    let guardian = RequestGuard(token: "secret-token", port: 4321)
    let local = ["host": "127.0.0.1:4321"]

    func verdict(
        _ method: String = "GET", _ path: String = "/", token: String? = "secret-token", headers: [String: String] = [:]
    ) -> RequestGuard.Verdict {
        guardian.check(method: method, path: path, queryToken: token, headers: local.merging(headers) { _, new in new })
    }

    func status(_ verdict: RequestGuard.Verdict) -> Int? {
        if case .refused(let status, _) = verdict { return status }
        return nil
    }

    @Test func theTokenIsNeededOnEveryRequest() {
        #expect(verdict() == .allowed)
        #expect(verdict(token: nil, headers: ["x-storesh-token": "secret-token"]) == .allowed)
        #expect(status(verdict(token: nil)) == 401)
        #expect(status(verdict("GET", "/api/events", token: nil)) == 401)
        #expect(status(verdict(token: "secret-tokem")) == 403)
        #expect(status(verdict(token: "secret-token-and-more")) == 403)
        #expect(status(verdict(token: "")) == 403)
    }

    @Test func anotherOriginOrSiteIsRefused() {
        #expect(verdict(headers: ["origin": "http://127.0.0.1:4321"]) == .allowed)
        #expect(verdict(headers: ["origin": "http://localhost:4321", "sec-fetch-site": "same-origin"]) == .allowed)
        #expect(status(verdict(headers: ["origin": "http://evil.example"])) == 403)
        #expect(status(verdict(headers: ["origin": "http://127.0.0.1:4322"])) == 403)
        #expect(status(verdict(headers: ["origin": "null"])) == 403)
        #expect(status(verdict(headers: ["sec-fetch-site": "cross-site"])) == 403)
    }

    @Test func aHostThatIsNotThisLoopbackInspectorIsRefused() {
        // DNS rebinding: evil.example resolved to 127.0.0.1 still says Host: evil.example.
        #expect(status(verdict(headers: ["host": "evil.example:4321"])) == 403)
        #expect(status(verdict(headers: ["host": "127.0.0.1:80"])) == 403)
        #expect(status(verdict(headers: ["host": "192.168.1.5:4321"])) == 403)
        #expect(status(guardian.check(method: "GET", path: "/", queryToken: "secret-token", headers: [:])) == 403)
        #expect(verdict(headers: ["host": "LOCALHOST:4321"]) == .allowed)
    }

    @Test func noActionIsSentByAGet() {
        let json = ["content-type": "application/json"]
        #expect(verdict("POST", "/api/operations/send", headers: json) == .allowed)
        #expect(status(verdict("GET", "/api/operations/send")) == 405)
        #expect(status(verdict("HEAD", "/api/operations/goto")) == 405)
        #expect(status(verdict("POST", "/api/state", headers: json)) == 405)
        #expect(status(verdict("PUT", "/api/operations/send", headers: json)) == 405)
        // A form another page could post without asking (a "simple" request) is refused.
        #expect(
            status(
                verdict("POST", "/api/operations/send", headers: ["content-type": "application/x-www-form-urlencoded"]))
                == 415)
    }

    @Test func onlyTheJSONMediaTypeIsJSON() {
        let send = { (type: String) in
            self.status(self.verdict("POST", "/api/operations/send", headers: ["content-type": type]))
        }
        #expect(send("application/json") == nil)
        #expect(send("Application/JSON; charset=utf-8") == nil)
        #expect(send(" application/json ;charset=utf-8") == nil)
        #expect(send("application/jsonx") == 415)
        #expect(send("application/json-patch+json") == 415)
        #expect(send("application/json2; charset=utf-8") == 415)
        #expect(send("text/plain; application/json") == 415)
    }

    @Test func tokensAreRandomAndLong() {
        let first = RequestGuard.newToken()
        let second = RequestGuard.newToken()
        #expect(first.count == 64 && first != second)
        #expect(first.allSatisfy { $0.isHexDigit })
    }
}
