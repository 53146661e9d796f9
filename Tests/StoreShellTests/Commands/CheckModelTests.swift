import HostTestSupport
import StoreHost
import StoreShell
import StoreValue
import Testing

/// `:check-model`: the properties a plugin declares in Swift (`PluginModel.invariant`,
/// `.postcondition`) asked for at the prompt, in process and in a worker — where the
/// plugin keeps the last action and the state before it.
@MainActor
@Suite(":check-model: the model's own checks")
struct CheckModelTests {
    static let registryName = "\"a killed process keeps no name\""

    @Test(arguments: [PluginHost.Isolation.inProcess, .workers])
    func aPostconditionInSwiftLooksAtTheLastAction(isolation: PluginHost.Isolation) async throws {
        let shell = try ShellHarness(plugins: ["Classics"], isolation: isolation)
        try shell.core.use("classics.registry")
        #expect(await shell.run(":check-model \(Self.registryName)") == [], "no action yet: it holds")
        // Twins: the buggy build gives pid 2 again after pid 1 died, and kill 2 leaves a name.
        _ = await shell.run("spawn", "spawn", "kill pid: 1", "spawn", #"register name: "a", pid: 2"#)
        #expect(await shell.run(":check-model \(Self.registryName)") == [], "register kills nothing")
        _ = await shell.run("kill pid: 2")
        let broken = await shell.run(":check-model \(Self.registryName)")
        #expect(
            broken.contains { $0.contains("the model's postcondition \(Self.registryName) is broken") }, "\(broken)")
        // The next action is the last one now: a spawn kills nothing.
        _ = await shell.run("spawn")
        #expect(await shell.run(":check-model \(Self.registryName)") == [])
    }

    @Test(arguments: [PluginHost.Isolation.inProcess, .workers])
    func everyCheckIsListedWithWhetherItHolds(isolation: PluginHost.Isolation) async throws {
        let shell = try ShellHarness(plugins: ["Cart"], isolation: isolation)
        _ = await shell.run(#"add sku: "apple", quantity: 2"#, #"remove sku: "apple""#)
        let listed = await shell.run(":check-model")
        #expect(
            listed == [
                "holds   invariant: lines[0].quantity > 0",
                "holds   invariant: lines[0].sku != \"\"",
                "holds   invariant in code: each product has one line",
                "holds   postcondition in code: remove takes the product out",
            ], "\(listed)")
        shell.formatter = OutputFormatter(format: .json)
        let json = await shell.run(":check-model")
        #expect(json.count == 1)
        #expect(json.first?.contains(#""holds":true"#) == true, "\(json)")
        #expect(json.first?.contains(#""kind":"postcondition in code""#) == true, "\(json)")
    }

    @Test func anUnknownNameSaysWhichChecksThereAre() async throws {
        let shell = try ShellHarness(plugins: ["Cart"])
        let unknown = await shell.run(#":check-model "one line each""#)
        #expect(
            unknown.contains {
                $0.contains(
                    #"cart.cart has no check in code named "one line each"; its checks: "each product has one line", "remove takes the product out""#
                )
            }, "\(unknown)")
        let two = await shell.run(":check-model each product")
        #expect(two.contains { $0.contains("usage: :check-model [NAME] (quote a name that has spaces)") }, "\(two)")
        let counter = try ShellHarness(plugins: ["Counter"])
        #expect(await counter.run(":check-model") == ["counter.counter declares no checks"])
        #expect(
            await counter.run(":check-model x").contains {
                $0.contains("counter.counter has no check in code named \"x\"; it declares none")
            })
    }
}
