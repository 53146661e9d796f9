import Foundation

/// A request's head, read and checked (RFC 9112): its method, its target in origin form,
/// its version, and its header fields in order. Anything the inspector cannot read
/// unambiguously is refused here, before storesh sees it: a target that is not a path,
/// a missing or second Host, a second of any field storesh decides by, a body framed two
/// ways.
package struct RequestHead {
    package var method: String
    /// The path and query, as sent (`/api/state?token=…`).
    package var target: String
    /// 0 for HTTP/1.0, 1 for HTTP/1.1.
    package var minorVersion: Int
    /// Each field's lowercase name and its value without the spaces around it.
    package var fields: [(name: String, value: String)]

    /// How the body is framed.
    package enum Body: Equatable {
        case empty
        case length(Int)
        case chunked
    }

    /// Fields of which a request may carry one only: they decide where it goes, who
    /// sent it, and how long it is.
    package static let single: Set<String> = [
        "host", "content-length", "content-type", "origin", "x-storesh-token", "transfer-encoding",
        "sec-fetch-site", "expect",
    ]

    /// The first value of field `name` (lowercase).
    package subscript(name: String) -> String? { fields.first { $0.name == name }?.value }

    /// Whether the connection stays open after the answer: HTTP/1.1 without
    /// `Connection: close`. HTTP/1.0 connections are closed.
    package var keepsAlive: Bool {
        guard minorVersion == 1 else { return false }
        let options = fields.filter { $0.name == "connection" }.flatMap { $0.value.split(separator: ",") }
        return !options.contains { $0.trimmingCharacters(in: .whitespaces).lowercased() == "close" }
    }

    /// The head of `lines` (request line first, each without its line end), or why not.
    package init(lines: [ArraySlice<UInt8>]) throws(Refusal) {
        guard let first = lines.first else { throw Refusal(400, "the request has no request line") }
        let parts = first.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, parts[0].allSatisfy(Self.isTokenByte) else {
            throw Refusal(400, "the request line is not 'METHOD /path HTTP/1.1'")
        }
        method = String(decoding: parts[0], as: UTF8.self)
        let version = String(decoding: parts[2], as: UTF8.self)
        switch version {
        case "HTTP/1.1": minorVersion = 1
        case "HTTP/1.0": minorVersion = 0
        default:
            // HTTP/x.y of another version (RFC 9110 §2.5), or not a version at all.
            let shape = Array(parts[2])
            let digits = UInt8(ascii: "0")...UInt8(ascii: "9")
            if shape.count == 8, version.hasPrefix("HTTP/"), digits.contains(shape[5]), shape[6] == UInt8(ascii: "."),
                digits.contains(shape[7])
            {
                throw Refusal(505, "this server speaks HTTP/1.1 (and 1.0), not \(version)")
            }
            throw Refusal(400, "the request line's version is not HTTP/1.1")
        }
        let target = parts[1]
        guard target.first == UInt8(ascii: "/") else {
            throw Refusal(
                400, "the request target must be a path (origin form, '/api/…'), not an absolute URL, authority or '*'")
        }
        guard target.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            throw Refusal(400, "the request target has a character that is not allowed in a URL")
        }
        self.target = String(decoding: target, as: UTF8.self)
        fields = []
        for line in lines.dropFirst() { fields.append(try Self.field(line)) }
        try checkFields()
    }

    /// One header line as a name and a value.
    package static func field(_ line: ArraySlice<UInt8>) throws(Refusal) -> (name: String, value: String) {
        if let first = line.first, first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") {
            throw Refusal(400, "a header line is folded onto the next (obsolete line folding is refused)")
        }
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else {
            throw Refusal(400, "a header line has no ':'")
        }
        let name = line[..<colon]
        guard !name.isEmpty, name.allSatisfy(isTokenByte) else {
            throw Refusal(400, "a header's name is empty or has a character not allowed there (or a space before ':')")
        }
        var value = line[line.index(after: colon)...]
        while let byte = value.first, byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") { value.removeFirst() }
        while let byte = value.last, byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") { value.removeLast() }
        guard value.allSatisfy({ $0 >= 0x20 && $0 != 0x7F || $0 == UInt8(ascii: "\t") }) else {
            throw Refusal(400, "the header \(String(decoding: name, as: UTF8.self)) has a control character")
        }
        return (String(decoding: name, as: UTF8.self).lowercased(), String(decoding: value, as: UTF8.self))
    }

    /// Host once (HTTP/1.1 needs it), no second of the fields in `single`, and a body
    /// framed one way.
    private func checkFields() throws(Refusal) {
        var seen: Set<String> = []
        for (name, _) in fields where Self.single.contains(name) {
            guard seen.insert(name).inserted else {
                throw Refusal(400, "the request has more than one \(name) header")
            }
        }
        if minorVersion == 1, !seen.contains("host") {
            throw Refusal(400, "an HTTP/1.1 request needs a Host header")
        }
        if seen.contains("transfer-encoding"), seen.contains("content-length") {
            throw Refusal(400, "the request has both Transfer-Encoding and Content-Length")
        }
    }

    /// How the body is framed, or why it cannot be read.
    package func body() throws(Refusal) -> Body {
        if let coding = self["transfer-encoding"] {
            guard minorVersion == 1 else { throw Refusal(400, "HTTP/1.0 has no Transfer-Encoding") }
            guard coding.lowercased() == "chunked" else {
                throw Refusal(501, "this server reads bodies whole or chunked, not '\(coding)'")
            }
            return .chunked
        }
        guard let text = self["content-length"] else { return .empty }
        guard !text.isEmpty, text.utf8.count <= 18, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
            let length = Int(text)
        else {
            throw Refusal(400, "Content-Length '\(text)' is not a number of bytes")
        }
        return length == 0 ? .empty : .length(length)
    }

    /// A byte of a token (RFC 9110 §5.6.2): what methods and field names are made of.
    package static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
        }
    }
}
