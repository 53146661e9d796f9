import HostTestSupport
import StoreHost
import StoreShell
import Testing

/// Callbacks reach the shell core and a worker's stores through a route held weakly (a
/// weak reference to either would slow every retain of it, one per action). Once the core
/// is let go, it is freed, and what the host it used still calls does nothing.
@MainActor
@Suite("A shell core's lifetime: callbacks after it is gone")
struct ShellLifetimeTests {
    @Test(arguments: [PluginHost.Isolation.inProcess, .workers])
    func aCoreLetGoIsFreedAndItsHostsCallbacksDoNothing(isolation: PluginHost.Isolation) async throws {
        let host = makeHost()
        host.isolation = isolation
        try host.load("Counter")
        var core: ShellCore? = ShellCore(host: host) { _ in }
        try core?.use("counter")
        #expect(await core?.execute("increment") == true)
        weak let freed = core
        core = nil
        #expect(freed == nil, "nothing the core handed out keeps it alive")
        host.log?(.warning, "a plugin's late message")
        host.log?(.error, "and a late error")
    }
}
