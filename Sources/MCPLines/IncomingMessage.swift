package import Foundation

/// One line a client sent, judged as JSON-RPC 2.0 and MCP say before the SDK sees it: a
/// request with a valid id and params, a notification, a batch, a response (the server
/// asks nothing, so it is dropped), or an error to answer (`-32700` for a line that is not
/// JSON, `-32600` for a message that is not a valid request, `-32602` for params of the
/// wrong shape). An error whose request's id cannot be read is answered with id `null`.
package enum IncomingMessage: Equatable {
    /// A request the SDK is to answer: `line` is what it reads (the line as sent: only a
    /// message whose every member was checked gets here).
    case request(id: RequestID, method: String, line: Data)
    /// A notification for the SDK; never answered.
    case notification(method: String, line: Data)
    /// The items of a batch (a JSON array), each a message's bytes.
    case batch([Data])
    /// A response from the client, or a notification not passed on: nothing to do.
    case ignored
    /// An error answer, ready to write.
    case answer(Data)

    /// Checks a request's params for one method: nil when they are fine, else what is wrong.
    package typealias ParameterCheck = @Sendable (Data) -> String?

    /// Judges `line`; `initialized` says whether the session answered `initialize`, and
    /// `checks` holds a params check for each method that has one.
    package static func classify(_ line: Data, initialized: Bool, checks: [String: ParameterCheck]) -> IncomingMessage {
        let envelope: Envelope
        do {
            envelope = try JSONDecoder().decode(Envelope.self, from: line)
        } catch let failure as DecodingError {
            if case .typeMismatch = failure, line.first(where: { !Self.isSpace($0) }) == UInt8(ascii: "[") {
                return batch(line)
            }
            if case .dataCorrupted(let context) = failure, context.codingPath.isEmpty {
                return .answer(error(.parseError, "the message is not JSON: \(context.debugDescription)", id: nil))
            }
            return .answer(error(.invalidRequest, "a message must be a JSON-RPC 2.0 object", id: nil))
        } catch {
            return .answer(Self.error(.parseError, "the message is not JSON", id: nil))
        }
        return envelope.judge(line, initialized: initialized, checks: checks)
    }

    /// A batch: its items, or the error for an empty or unreadable one.
    private static func batch(_ line: Data) -> IncomingMessage {
        // MCP's stdio messages are UTF-8; Foundation would also read UTF-16 or UTF-32,
        // whose bytes `batchItems` cannot slice.
        guard String(validating: line, as: UTF8.self) != nil else {
            return .answer(error(.parseError, "the message is not JSON in UTF-8", id: nil))
        }
        guard let items = try? JSONSerialization.jsonObject(with: line, options: [.fragmentsAllowed]) as? [Any] else {
            return .answer(error(.parseError, "the message is not JSON", id: nil))
        }
        guard !items.isEmpty else { return .answer(error(.invalidRequest, "a batch must not be empty", id: nil)) }
        return .batch(batchItems(line))
    }

    /// The bytes of each item of `line`, a JSON array already read as valid: each item
    /// as the client wrote it. (Written again from what JSONSerialization read, an item's
    /// keys came out in another order from one call to the next, and its numbers changed.)
    static func batchItems(_ line: Data) -> [Data] {
        let bytes = [UInt8](line)
        var items: [Data] = []
        var depth = 0
        var inString = false
        var escaped = false
        var start: Int?
        for (index, byte) in bytes.enumerated() {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                if depth == 1 { start = index + 1 }
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                if depth == 1, let first = start { append(bytes[first..<index], to: &items) }
                depth -= 1
            case UInt8(ascii: ","):
                if depth == 1, let first = start {
                    append(bytes[first..<index], to: &items)
                    start = index + 1
                }
            default:
                break
            }
        }
        return items
    }

    private static func trimmed(_ bytes: ArraySlice<UInt8>) -> Data {
        Data(bytes.drop(while: isSpace).reversed().drop(while: isSpace).reversed())
    }

    /// `bytes` trimmed, added to `items` unless nothing is left (after a trailing comma,
    /// which Foundation's reader accepts).
    private static func append(_ bytes: ArraySlice<UInt8>, to items: inout [Data]) {
        let item = trimmed(bytes)
        if !item.isEmpty { items.append(item) }
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// JSON-RPC's error codes used here.
    package enum Code: Int {
        case parseError = -32700
        case invalidRequest = -32600
        case invalidParams = -32602
    }

    /// An error answer, as a line's bytes (without its newline).
    package static func error(_ code: Code, _ message: String, id: RequestID?) -> Data {
        let answer = ErrorAnswer(id: id, error: .init(code: code.rawValue, message: message))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(answer))
            ?? Data(#"{"error":{"code":-32603,"message":"internal error"},"id":null,"jsonrpc":"2.0"}"#.utf8)
    }

    private struct ErrorAnswer: Encodable {
        struct Body: Encodable {
            let code: Int
            let message: String
        }
        let jsonrpc = "2.0"
        let id: RequestID?
        let error: Body

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(jsonrpc, forKey: .jsonrpc)
            try container.encode(id, forKey: .id)  // null when unknown
            try container.encode(error, forKey: .error)
        }

        enum CodingKeys: String, CodingKey { case jsonrpc, id, error }
    }
}

/// The members of a message that decide what it is, each read as what it turned out to be
/// rather than failing, so that a bad one can be named.
private struct Envelope: Decodable {
    enum Member<T: Equatable>: Equatable {
        case absent
        case valid(T)
        case invalid
    }

    let jsonrpc: Member<String>
    let id: Member<RequestID>
    let method: Member<String>
    let params: ParamsShape
    let isResponse: Bool

    enum ParamsShape { case absent, structured, other }

    enum CodingKeys: String, CodingKey { case jsonrpc, id, method, params, result, error }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        jsonrpc = Self.member(String.self, .jsonrpc, in: container)
        method = Self.member(String.self, .method, in: container)
        isResponse = container.contains(.result) || container.contains(.error)
        if !container.contains(.id) {
            id = .absent
        } else if let string = try? container.decode(String.self, forKey: .id) {
            id = .valid(.string(string))
        } else if let integer = Self.integer(forKey: .id, in: container) {
            id = .valid(.number(integer))
        } else {
            id = .invalid  // null, a fraction, an integer too big for 64 bits, an object, an array, a boolean
        }
        if !container.contains(.params) || (try? container.decodeNil(forKey: .params)) == true {
            params = .absent
        } else if (try? container.decode(Structured.self, forKey: .params)) != nil {
            params = .structured
        } else {
            params = .other
        }
    }

    private static func member<T: Decodable & Equatable>(
        _ type: T.Type, _ key: CodingKeys, in container: KeyedDecodingContainer<CodingKeys>
    ) -> Member<T> {
        guard container.contains(key) else { return .absent }
        return (try? container.decode(T.self, forKey: key)).map(Member.valid) ?? .invalid
    }

    /// An integer id: `1` and `-3`, not `1.5`; `1.0` is read as the integer it equals.
    private static func integer(forKey key: CodingKeys, in container: KeyedDecodingContainer<CodingKeys>) -> Int? {
        if (try? container.decodeNil(forKey: key)) == true { return nil }
        return try? container.decode(Int.self, forKey: key)
    }

    /// An object or an array, whatever it holds.
    private struct Structured: Decodable {
        init(from decoder: any Decoder) throws {
            if (try? decoder.container(keyedBy: AnyKey.self)) == nil { _ = try decoder.unkeyedContainer() }
        }
    }

    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    func judge(
        _ line: Data, initialized: Bool, checks: [String: IncomingMessage.ParameterCheck]
    ) -> IncomingMessage {
        let validID: RequestID? = if case .valid(let id) = id { id } else { nil }
        guard jsonrpc == .valid("2.0") else {
            return .answer(IncomingMessage.error(.invalidRequest, "\"jsonrpc\" must be \"2.0\"", id: validID))
        }
        if case .invalid = id {
            return .answer(
                IncomingMessage.error(
                    .invalidRequest, "\"id\" must be a string or an integer (of at most 64 bits)", id: nil))
        }
        guard case .valid(let name) = method else {
            if case .absent = method, isResponse, validID != nil { return .ignored }  // a response: we ask nothing
            return .answer(IncomingMessage.error(.invalidRequest, "\"method\" must be a string", id: validID))
        }
        guard let requestID = validID else {
            // Checked no further: a notification is never answered. A cancellation is not
            // passed on: the request it names runs to its answer (a handler the SDK cancels
            // answers nothing, and the requests after it would wait for that answer).
            if name == "notifications/cancelled" { return .ignored }
            return .notification(method: name, line: line)
        }
        if isResponse {
            return .answer(
                IncomingMessage.error(
                    .invalidRequest, "a request has no \"result\" or \"error\"", id: requestID))
        }
        if !initialized, name != "initialize", name != "ping" {
            return .answer(
                IncomingMessage.error(
                    .invalidRequest, "the session is not initialized: send initialize first", id: requestID))
        }
        if case .other = params {
            return .answer(
                IncomingMessage.error(.invalidParams, "\"params\" must be an object or an array", id: requestID))
        }
        if let check = checks[name], let problem = check(line) {
            return .answer(IncomingMessage.error(.invalidParams, "\(name): \(problem)", id: requestID))
        }
        return .request(id: requestID, method: name, line: line)
    }
}

/// A JSON-RPC request's id: a string or an integer (MCP's `ID`, without the SDK).
package enum RequestID: Hashable, Sendable, Encodable {
    case string(String)
    case number(Int)

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let text): try container.encode(text)
        case .number(let number): try container.encode(number)
        }
    }
}
