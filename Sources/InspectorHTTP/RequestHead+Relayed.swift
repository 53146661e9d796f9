import Foundation
package import InspectorRelay

extension RequestHead {
    /// How the body is framed, checked against what the inspector takes: only a POST has
    /// one, and a length past `limits.body` is refused before a byte of it is read.
    package func checkedBody(within limits: HTTPLimits) throws(Refusal) -> Body {
        let framing = try body()
        if framing != .empty, method != "POST" {
            throw Refusal(400, "a \(method) request has no body")
        }
        if case .length(let length) = framing, length > limits.body {
            throw Refusal(413, "an operation's arguments are at most \(limits.body >> 20) MiB")
        }
        return framing
    }

    /// The request storesh is given: the path as sent, the query's parameters (the first
    /// of each, percent-decoded), the headers (RequestHead let through one of each field
    /// that matters; of others, the first).
    package func relayed(body: [UInt8]) throws(Refusal) -> RelayedRequest {
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        var query: [String: String] = [:]
        for item in parts.count > 1 ? parts[1].split(separator: "&") : [] {
            let pair = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = pair[0].removingPercentEncoding,
                let value = pair.count > 1 ? pair[1].removingPercentEncoding : ""
            else { throw Refusal(400, "the query has a malformed percent-encoding") }
            if query[name] == nil { query[name] = value }
        }
        var headers: [String: String] = [:]
        for (name, value) in fields where headers[name] == nil { headers[name] = value }
        return RelayedRequest(method: method, path: String(parts[0]), query: query, headers: headers, body: body)
    }
}
