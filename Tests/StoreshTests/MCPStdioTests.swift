import Foundation
import Testing

/// `storesh mcp` on its real standard streams, fed what a broken or hostile client sends:
/// every bad message gets an answer or is dropped with a note on standard error, standard
/// output carries nothing but messages, and the session answers the next good request.
@Suite(.serialized) struct MCPStdioTests {
    static func request(_ id: Int, _ method: String, _ params: String) -> String {
        #"{"jsonrpc":"2.0","id":\#(id),"method":"\#(method)","params":\#(params)}"#
    }

    static let initialize =
        request(
            1, "initialize",
            #"{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"e2e","version":"1"}}"#)
        + "\n" + #"{"jsonrpc":"2.0","method":"notifications/initialized"}"#

    /// The messages storesh wrote, each parsed; fails the test on a line that is not JSON.
    static func messages(_ stdout: String) -> [[String: Any]] {
        stdout.split(separator: "\n").compactMap { line in
            let parsed = try? JSONSerialization.jsonObject(with: Data(line.utf8))
            if parsed == nil { Issue.record("standard output has a line that is not a message: \(line.prefix(200))") }
            return parsed as? [String: Any]
        }
    }

    static func answer(_ id: Int, in messages: [[String: Any]]) -> [String: Any]? {
        messages.first { ($0["id"] as? Int) == id }
    }

    static func text(of answer: [String: Any]?) -> String {
        let content = (answer?["result"] as? [String: Any])?["content"] as? [[String: Any]]
        return content?.compactMap { $0["text"] as? String }.joined() ?? ""
    }

    @Test func badMessagesAreAnsweredAndTheSessionGoesOn() throws {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        let longAction = "setCount \"" + String(repeating: "x", count: 1 << 20) + "\""
        var input = Data((Self.initialize + "\n").utf8)
        for line in [
            "this is not JSON",
            Self.request(2, "no/such/method", "{}"),
            Self.request(3, "tools/call", #"{"name":"send","arguments":{"action":5}}"#),
            Self.request(4, "tools/call", #"{"name":"send"}"#),
            Self.request(5, "tools/call", #""send""#),
            deep,
            "[]",
            Self.request(
                6, "tools/call",
                #"{"name":"send","arguments":{"action":"\#(longAction.replacingOccurrences(of: "\"", with: "\\\""))"}}"#
            ),
        ] {
            input.append(Data((line + "\n").utf8))
        }
        input.append(Data([0xFF, 0xFE, 0x7B, 0x0A]))  // not UTF-8
        input.append(Data(repeating: UInt8(ascii: "x"), count: (64 << 20) + 1))  // over the line limit
        input.append(Data("\n".utf8))
        input.append(
            Data((Self.request(7, "tools/call", #"{"name":"send","arguments":{"action":"increment"}}"#) + "\n").utf8))

        let result = try run(storeshBinary, ["mcp", "--plugin", "Counter"], input: input)
        #expect(result.status == 0)
        let messages = Self.messages(result.stdout)
        #expect((Self.answer(2, in: messages)?["error"] as? [String: Any])?["code"] as? Int == -32601)
        #expect(Self.text(of: Self.answer(3, in: messages)) == "error: send: 'action' should be a string, not int 5")
        #expect(Self.text(of: Self.answer(4, in: messages)) == "error: send needs 'action' (a string)")
        #expect(Self.answer(5, in: messages)?["error"] != nil)
        let long = Self.text(of: Self.answer(6, in: messages))
        #expect(long.count < 25_200 && long.contains("… cut at 25000 characters"))
        #expect(Self.text(of: Self.answer(7, in: messages)) == "increment: state changed\n  ~ count: 0 → 1")
        #expect(result.stderr.contains("a message of 67108865 bytes was dropped: longer than the limit of 67108864"))
    }

    /// A result's structured content is the shell's record as its formatter wrote it, on
    /// the real stdio transport too; an action tool's values reach the model as they are,
    /// and values that do not fit get the prompt's message with the column in the action.
    @Test func aResultCarriesTheShellsRecordAsWritten() throws {
        var input = Self.initialize + "\n"
        input += Self.request(2, "tools/call", #"{"name":"action_setCount","arguments":{"arg1":41}}"#) + "\n"
        input += Self.request(3, "tools/call", #"{"name":"send","arguments":{"action":"setCount true"}}"#) + "\n"
        let result = try storesh(["mcp", "--plugin", "Counter"], input: input)
        #expect(result.status == 0, "\(result.stderr)")
        let messages = Self.messages(result.stdout)
        func record(_ id: Int) -> [String: Any]? {
            (Self.answer(id, in: messages)?["result"] as? [String: Any])?["structuredContent"] as? [String: Any]
        }
        #expect(record(2)?["ok"] as? Bool == true && record(2)?["operation"] as? String == "action_setCount")
        let sent = (record(2)?["outputs"] as? [[String: Any]])?.first
        #expect(sent?["kind"] as? String == "action" && sent?["action"] as? String == "setCount 41", "\(messages)")
        #expect(sent?["changed"] as? Bool == true)
        #expect(record(3)?["ok"] as? Bool == false && record(3)?["column"] as? Int == 10, "\(messages)")
        #expect(!result.stdout.contains("storesh-record-"), "no placeholder is left in a message")
    }

    /// The MCP session's models get the same deterministic world as the shell's: on a
    /// virtual clock, the same ids and dates in every run and in both modes; with
    /// `--real-world`, real ones.
    @Test func theModelsWorldFollowsTheSessionsClock() throws {
        var input = Self.initialize + "\n"
        input += Self.request(2, "tools/call", #"{"name":"send","arguments":{"action":"add \"milk\""}}"#) + "\n"
        input += Self.request(3, "tools/call", #"{"name":"state","arguments":{"path":"notes"}}"#) + "\n"
        func notes(_ flags: [String]) throws -> String {
            let result = try run(
                storeshBinary, ["mcp", "--plugin", "Notebook", "--model", "notebook.notebook"] + flags,
                input: Data(input.utf8))
            #expect(result.status == 0, "\(result.stderr)")
            return Self.text(of: Self.answer(3, in: Self.messages(result.stdout)))
        }
        let virtual = try [[], [], ["--in-process"]].map { try notes(["--virtual-clock"] + $0) }
        #expect(virtual[0].contains(#"created: "2025-01-01T00:00:00.000Z""#), "\(virtual[0])")
        #expect(Set(virtual).count == 1, "\(virtual)")
        let real = try notes(["--virtual-clock", "--real-world"])
        #expect(!real.contains("2025-01-01T00:00:00") && real.contains("created:"), "\(real)")
    }

    @Test func whatAPluginPrintsGoesToStandardError() throws {
        // In process, a plugin that prints writes to descriptor 1, which was the protocol's.
        let input =
            Self.initialize + "\n"
            + Self.request(2, "tools/call", #"{"name":"send","arguments":{"action":"say \"hello from the plugin\""}}"#)
            + "\n"
        let result = try storesh(["mcp", "--in-process", "--plugin", unrulyPlugin], input: input)
        #expect(result.status == 0)
        let messages = Self.messages(result.stdout)
        #expect(messages.count == 2)
        #expect(Self.answer(2, in: messages)?["result"] != nil)
        #expect(result.stderr.contains("hello from the plugin"))
    }

    /// `storesh mcp` is served by `storesh-mcp`, exec'd in its place: the client's process
    /// answers, and a missing program is said plainly, with nothing on standard output.
    @Test func theServerIsStoreshMCPInStoreshsPlace() throws {
        let served = try storesh(["mcp", "--in-process"], input: Self.initialize + "\n")
        #expect(served.status == 0)
        #expect(Self.answer(1, in: Self.messages(served.stdout)) != nil, "\(served.stderr)")
        let missing = try storesh(
            ["mcp", "--in-process"], input: Self.initialize + "\n",
            environment: ["STORESH_MCP": "/nonexistent/storesh-mcp"])
        #expect(missing.status == 2 && missing.stdout.isEmpty)
        #expect(
            missing.stderr == "storesh mcp: cannot run /nonexistent/storesh-mcp: No such file or directory\n",
            "\(missing.stderr)")
        let usage = try storesh(["mcp", "--history-limit", "-1"], input: "")
        #expect(
            usage.status == 2 && usage.stderr.contains("--history-limit must be 0"),
            "storesh checks the options before it hands over: \(usage.stderr)")
    }
}
