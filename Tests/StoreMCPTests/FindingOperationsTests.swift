import Foundation
import HostTestSupport
import StoreHost
import StoreService
import StoreShell
import StoreValue
import Testing

/// explore, bisect, why, find and save_test as operations (MCP tools): each is the shell's
/// command, with the shell's answer.
@MainActor
@Suite struct FindingOperationsTests {
    @Test func exploreFindsTheCountersOverflowAndLeavesTheSessionAlone() async throws {
        let service = try SessionServiceTests.service("Counter")
        _ = await service.perform("send", arguments: ["action": .string("setCount 3")])
        let out = FileManager.default.temporaryDirectory.appendingPathComponent(
            "storesh-mcp-explore-\(UUID()).transcript"
        ).path
        defer { try? FileManager.default.removeItem(atPath: out) }
        let explored = await service.perform(
            "explore",
            arguments: [
                "seed": .int(1), "runs": .int(100), "out": .string(out),
                "invariants": .array([.string("count > -1000000")]),
            ])
        let text = explored.rendered().text
        #expect(explored.succeeded, "\(text)")
        #expect(text.contains("explore counter.counter: seed 1, each run after the session's 1 action"), "\(text)")
        #expect(text.contains("failure: "), "\(text)")
        #expect(FileManager.default.fileExists(atPath: out))
        #expect(explored.rendered().record.contains(#""kind":"explore""#))
        #expect(await service.perform("state", arguments: ["path": .string("count")]).rendered().text == "3")
        let bad = await service.perform("explore", arguments: ["invariants": .string("count > 0")])
        #expect(!bad.succeeded && bad.rendered().text.contains("invariants is a list of strings"))
    }

    @Test func bisectWhyFindAndSaveTestAnswerAsTheShellDoes() async throws {
        let service = try SessionServiceTests.service("Counter")
        for action in ["increment", "increment", "setCount 10", "increment"] {
            _ = await service.perform("send", arguments: ["action": .string(action)])
        }
        let bisect = await service.perform("bisect", arguments: ["condition": .string("count >= 10")])
        #expect(bisect.succeeded && bisect.rendered().record.contains(#""kind":"bisect""#), "\(bisect.rendered().text)")
        #expect(bisect.rendered().record.contains(#""action":3"#), "\(bisect.rendered().record)")
        let why = await service.perform("why", arguments: ["path": .string("count")])
        #expect(why.succeeded && why.rendered().record.contains(#""kind":"why""#), "\(why.rendered().text)")
        let found = await service.perform("find", arguments: ["text": .string("11")])
        #expect(found.rendered().text.contains("count"), "\(found.rendered().text)")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("storesh mcp \(UUID()).transcript")
            .path
        defer { try? FileManager.default.removeItem(atPath: file) }
        let saved = await service.perform("save_test", arguments: ["file": .string(file)])
        #expect(saved.succeeded, "\(saved.rendered().text)")
        #expect((try? String(contentsOfFile: file, encoding: .utf8))?.contains("> setCount 10\n") == true)
        let half = await service.perform("save_test", arguments: ["file": .string(file), "from": .int(2)])
        #expect(!half.succeeded && half.rendered().text.contains("from and to go together"))
    }
}
