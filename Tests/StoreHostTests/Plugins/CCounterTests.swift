import HostTestSupport
import StoreHost
import StoreValue
import Testing

@MainActor
@Suite("The C plugin, through the host")
struct CCounterTests {
    @Test func loadsByNameAndRegistersItsModel() throws {
        let host = makeHost()
        let plugin = try host.load("CCounter")
        #expect(plugin.name == "ccounter")
        #expect(plugin.toolchain == nil, "plain C has no toolchain to match")
        #expect(plugin.models.map(\.qualifiedName) == ["ccounter.ccounter"])
        let model = try host.model(named: "ccounter")
        #expect(model.actions.map(\.name) == ["increment", "decrement", "setCount", "reset"])
        #expect(model.actions.allSatisfy { $0.isTyped })
    }

    @Test func typedActionsThroughLibffi() throws {
        let host = makeHost()
        try host.load("CCounter")
        let session = try Session(model: host.model(named: "ccounter"), host: host)
        #expect(session.state == .record(["count": .int(0)], type: "CCounter"))
        let result = try session.send(text: "increment")
        #expect(result.stateChanged)
        #expect(result.changes.map(\.description) == ["~ count: 0 → 1"])
        _ = try session.send(text: "setCount 41")
        _ = try session.send(text: "increment")
        #expect(session.state["count"] == .int(42))
        let unchanged = try session.send(text: "setCount(42)")
        #expect(!unchanged.stateChanged)
        #expect(unchanged.changes.isEmpty)
        _ = try session.send(text: "reset")
        #expect(session.state["count"] == .int(0))
    }

    @Test func valueTreePathGivesTheSameResults() throws {
        let host = makeHost()
        try host.load("CCounter")
        let model = try host.model(named: "ccounter")
        let session = try Session(model: model, host: host)
        _ = try session.sendThroughValueTree(model.action(named: "setCount")!, arguments: [.int(7)])
        _ = try session.sendThroughValueTree(model.action(named: "decrement")!, arguments: [])
        let state = try session.readState()
        #expect(state["count"] == .int(6))
    }

    @Test func badArgumentsAreRejectedBeforeThePlugin() throws {
        let host = makeHost()
        try host.load("CCounter")
        let session = try Session(model: host.model(named: "ccounter"), host: host)
        _ = try session.send(text: "setCount 3")
        #expect(throws: SendError.text(TextError("setCount: this argument should be int, not string \"x\"", at: 9))) {
            try session.send(text: "setCount \"x\"")
        }
        #expect(throws: SendError.text(TextError("setCount needs argument 1 (int): setCount(int)", at: 8))) {
            try session.send(text: "setCount")
        }
        #expect(throws: SendError.text(TextError("increment takes 0 arguments (increment()), got more", at: 10))) {
            try session.send(text: "increment 1")
        }
        #expect(throws: SendError.text(TextError("unknown action 'incremnt'; did you mean 'increment'?", at: 0))) {
            try session.send(text: "incremnt")
        }
        #expect(session.state["count"] == .int(3), "failed sends leave the state alone")
    }
}
