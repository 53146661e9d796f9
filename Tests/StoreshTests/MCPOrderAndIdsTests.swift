import Foundation
import Testing

/// `storesh mcp` as JSON-RPC 2.0 and MCP say a server behaves, on its real standard
/// streams: pipelined requests run and are answered in the order they came, an error whose
/// request's id cannot be read has id `null`, a request before `initialize` or with params
/// of the wrong shape is an error, and a notification is never answered.
@Suite(.serialized) struct MCPOrderAndIdsTests {
    typealias Stdio = MCPStdioTests

    static func send(_ id: Int, _ action: String) -> String {
        Stdio.request(id, "tools/call", #"{"name":"send","arguments":{"action":"\#(action)"}}"#)
    }

    static func serve(_ lines: [String]) throws -> [[String: Any]] {
        let input = ([Stdio.initialize] + lines).map { $0 + "\n" }.joined()
        let result = try storesh(["mcp", "--plugin", "Counter"], input: input)
        #expect(result.status == 0, "\(result.stderr)")
        return Stdio.messages(result.stdout)
    }

    static func error(_ message: [String: Any]?) -> (code: Int?, message: String) {
        let error = message?["error"] as? [String: Any]
        return (error?["code"] as? Int, error?["message"] as? String ?? "")
    }

    /// 300 actions written in one go, three times: each runs after the one before it (its
    /// diff starts from the count the one before set) and its answer comes in turn.
    @Test(arguments: 1...3) func pipelinedRequestsRunAndAreAnsweredInOrder(round: Int) throws {
        let count = 300
        let messages = try Self.serve((1...count).map { Self.send($0 + 1, "setCount \($0)") })
        let answers = messages.compactMap { $0["id"] as? Int }.filter { $0 > 1 }
        #expect(answers == Array(2...(count + 1)), "answers in arrival order")
        for value in 1...count {
            let text = Stdio.text(of: Stdio.answer(value + 1, in: messages))
            let expected = "setCount \(value): state changed\n  ~ count: \(value - 1) → \(value)"
            guard text == expected else {
                Issue.record("round \(round): request \(value) ran out of order: \(text)")
                return
            }
        }
    }

    /// Calls the server answers itself (`tools/call`) and requests the SDK answers (a read
    /// of the state, a call to an unknown tool), pipelined: each read shows the count the
    /// call before it set, and the answers come in the order the requests came.
    @Test func callsAndOtherRequestsPipelinedKeepTheirOrder() throws {
        let count = 100
        var lines: [String] = []
        for value in 1...count {
            lines.append(Self.send(value * 3, "setCount \(value)"))
            lines.append(Stdio.request(value * 3 + 1, "resources/read", #"{"uri":"storesh://state"}"#))
            lines.append(Stdio.request(value * 3 + 2, "tools/call", #"{"name":"no-such-tool"}"#))
        }
        let messages = try Self.serve(lines)
        let answers = messages.compactMap { $0["id"] as? Int }.filter { $0 > 1 }
        #expect(answers == Array(3...(count * 3 + 2)), "answers in arrival order")
        for value in 1...count {
            let read = (Stdio.answer(value * 3 + 1, in: messages)?["result"] as? [String: Any])?["contents"]
            let text = ((read as? [[String: Any]])?.first?["text"] as? String) ?? ""
            guard text == #"{"count":\#(value)}"# else {
                Issue.record("the read after setCount \(value) saw: \(text.prefix(200))")
                return
            }
            #expect(Self.error(Stdio.answer(value * 3 + 2, in: messages)).code == -32602)
        }
    }

    /// A string argument reaches the operation as it was sent, even one that looks like a
    /// data URL (the SDK's values read it as data and gave it back re-encoded:
    /// `data:,hello` became `data:text/plain;base64,aGVsbG8=`).
    @Test func aStringArgumentArrivesAsSent() throws {
        let messages = try Self.serve([Self.send(2, "data:,hello")])
        let text = Stdio.text(of: Stdio.answer(2, in: messages))
        #expect(text.hasSuffix("\n  data:,hello\n      ^"), "the action as sent: \(text)")
    }

    @Test func errorsWhoseIdCannotBeReadHaveIdNull() throws {
        let messages = try Self.serve([
            "this is not JSON",
            #"{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}"#,
            #"{"jsonrpc":"2.0","id":1.5,"method":"ping"}"#,
            #"{"jsonrpc":"2.0","id":null,"method":"ping"}"#,
            #"{"jsonrpc":"2.0","id":123456789012345678901234567890,"method":"ping"}"#,
            #"{"jsonrpc":"2.0","id":[1],"method":"ping"}"#,
            #"{"jsonrpc":"2.0","id":true,"method":"ping"}"#,
            #"{"jsonrpc":"2.0","method":1,"params":"bar"}"#,
            "[]",
            "42",
            #"{"jsonrpc":"2.0","id":"last","method":"ping"}"#,
        ])
        let answers = messages.filter { ($0["id"] as? Int) != 1 }
        #expect(answers.count == 11, "one answer for each line: \(answers)")
        let codes = answers.dropLast().map { Self.error($0).code }
        #expect(codes == [-32700, -32600, -32600, -32600, -32600, -32600, -32600, -32600, -32600, -32600])
        for answer in answers.dropLast() {
            #expect(answer.keys.contains("id") && answer["id"] is NSNull, "id null: \(answer)")
        }
        #expect(answers.last?["id"] as? String == "last" && answers.last?["result"] != nil)
        #expect(Self.error(answers[1]).message.contains("\"id\" must be a string or an integer"))
    }

    @Test func requestsBeforeInitializeAreErrors() throws {
        let input =
            [
                Stdio.request(1, "tools/list", "{}"),
                Stdio.request(2, "ping", "{}"),
                Stdio.initialize,
                Stdio.request(3, "tools/list", "{}"),
            ].joined(separator: "\n") + "\n"
        let result = try storesh(["mcp", "--plugin", "Counter"], input: input)
        let messages = Stdio.messages(result.stdout)
        #expect(Self.error(Stdio.answer(1, in: messages)).code == -32600)
        #expect(Self.error(Stdio.answer(1, in: messages)).message.contains("send initialize first"))
        #expect(Stdio.answer(2, in: messages)?["result"] != nil, "ping is allowed before initialize")
        #expect(Stdio.answer(3, in: messages)?["result"] != nil)
    }

    @Test func wrongParamsAndUnknownResourcesAreErrors() throws {
        let messages = try Self.serve([
            Stdio.request(2, "tools/call", #"{"name":5}"#),
            Stdio.request(3, "resources/read", #"{"uri":["storesh://state"]}"#),
            Stdio.request(4, "resources/subscribe", #"{"uri":"x://y"}"#),
            Stdio.request(5, "resources/subscribe", #"{"uri":"storesh://state"}"#),
            Stdio.request(6, "tools/call", #""send""#),
            Stdio.request(7, "resources/read", "{}"),
            Stdio.request(8, "tools/call", #"{"name":"send","arguments":{"action":"increment"}}"#),
        ])
        let nameError = Self.error(Stdio.answer(2, in: messages))
        #expect(nameError.code == -32602 && nameError.message == "tools/call: params.name should be a string")
        #expect(Self.error(Stdio.answer(3, in: messages)).message == "resources/read: params.uri should be a string")
        let unknown = Self.error(Stdio.answer(4, in: messages))
        #expect(unknown.code == -32602 && unknown.message.contains("no resource x://y"))
        #expect(Stdio.answer(5, in: messages)?["result"] != nil)
        #expect(Self.error(Stdio.answer(6, in: messages)).code == -32602)
        #expect(Self.error(Stdio.answer(7, in: messages)).message == "resources/read: params needs 'uri'")
        #expect(Stdio.text(of: Stdio.answer(8, in: messages)) == "increment: state changed\n  ~ count: 0 → 1")
    }

    @Test func notificationsAreNeverAnswered() throws {
        let messages = try Self.serve([
            #"{"jsonrpc":"2.0","method":"notifications/no-such-thing"}"#,
            #"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}"#,
            #"{"jsonrpc":"2.0","method":"notifications/progress","params":5}"#,
            #"{"jsonrpc":"2.0","method":"tools/list"}"#,
            #"{"jsonrpc":"2.0","id":9,"result":{}}"#,
        ])
        #expect(messages.count == 1, "only initialize is answered: \(messages)")
    }

    @Test func aBatchIsAnsweredAsOneArrayInOrder() throws {
        let input =
            Stdio.initialize + "\n" + "["
            + [
                Self.send(2, "setCount 7"), #"{"jsonrpc":"2.0","method":"notifications/x"}"#, "5",
                Self.send(3, "increment"),
            ]
            .joined(separator: ",") + "]\n"
        let result = try storesh(["mcp", "--plugin", "Counter"], input: input)
        let lines = result.stdout.split(separator: "\n")
        let batch = try #require(
            lines.last.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) } as? [Any])
        let answers = batch.compactMap { $0 as? [String: Any] }
        #expect(answers.count == 3)
        #expect(Stdio.text(of: answers.first) == "setCount 7: state changed\n  ~ count: 0 → 7")
        #expect(Self.error(answers.dropFirst().first).code == -32600)
        #expect(Stdio.text(of: answers.last) == "increment: state changed\n  ~ count: 7 → 8")
    }
}
