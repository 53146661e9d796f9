import HostTestSupport
import StoreHost
import StoreValue
import Testing

@MainActor
@Suite("The Swift Counter plugin, and the C one side by side")
struct CounterPluginTests {
    @Test func swiftPluginReportsItsToolchainAndSchema() throws {
        let host = makeHost()
        let plugin = try host.load("Counter")
        #expect(plugin.name == "counter")
        #expect(plugin.toolchain == PluginHost.toolchain)
        let model = try host.model(named: "counter")
        #expect(model.doc == "A counter: the smallest model there is.")
        #expect(model.actions.map(\.name) == ["increment", "decrement", "setCount", "reset"])
        #expect(
            model.action(named: "setCount")?.params == [ParamDescriptor(label: nil, type: .int, doc: "the new count")])
        #expect(model.actions.allSatisfy { $0.isTyped }, "scalar actions get typed entry points from the SDK")
    }

    @Test func swiftAndCCountersAgree() throws {
        let host = makeHost()
        try host.load("Counter")
        try host.load("CCounter")
        let swift = try Session(model: host.model(named: "counter"), host: host)
        let c = try Session(model: host.model(named: "ccounter"), host: host)
        let script = ["increment", "increment", "setCount 10", "decrement", "setCount(10)", "reset", "increment"]
        for line in script {
            let a = try swift.send(text: line)
            let b = try c.send(text: line)
            #expect(a.stateChanged == b.stateChanged, "\(line)")
            #expect(a.changes.map(\.description) == b.changes.map(\.description), "\(line)")
            #expect(swift.state["count"] == c.state["count"], "\(line)")
        }
        #expect(swift.state == .record(["count": .int(1)], type: "Counter"))
    }

    @Test func valueTreePathDecodesWithCodable() throws {
        let host = makeHost()
        try host.load("Counter")
        let model = try host.model(named: "counter")
        let session = try Session(model: model, host: host)
        let result = try session.sendThroughValueTree(model.action(named: "setCount")!, arguments: [.int(5)])
        #expect(result.stateChanged)
        let state = try session.readState()
        #expect(state["count"] == .int(5))
    }
}
