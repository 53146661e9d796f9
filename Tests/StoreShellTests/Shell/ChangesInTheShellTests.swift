import HostTestSupport
import StoreHost
import StoreShell
import StoreValue
import Testing

@MainActor
@Suite("What the shell says about a plugin's changes")
struct ChangesInTheShellTests {
    private func shell(_ isolation: PluginHost.Isolation, checking: Bool) async throws -> ShellHarness {
        let library = try await Fixtures.library("libchanges.so", source: changesPluginSource, in: Fixtures.directory())
        let shell = try ShellHarness(plugins: [], isolation: isolation)
        shell.core.host.checksChanges = checking
        try shell.core.host.load(library)
        try shell.core.use("changes.changes")
        return shell
    }

    @Test(arguments: [PluginHost.Isolation.inProcess, .workers])
    func aChangeThatDoesNotFitIsAWarning(isolation: PluginHost.Isolation) async throws {
        let shell = try await shell(isolation, checking: false)
        let output = await shell.run("mode 1", "increment", ":state count")
        #expect(
            output.contains { $0.hasPrefix("warning: changes.changes reported a change that does not fit its state") },
            "\(output)")
        #expect(output.last == "1")
        #expect(shell.core.hostErrors == 0)
    }

    @Test(arguments: [PluginHost.Isolation.inProcess, .workers])
    func checkChangesCatchesALieThatFits(isolation: PluginHost.Isolation) async throws {
        let shell = try await shell(isolation, checking: true)
        let output = await shell.run("mode 5", "increment", ":state label")
        // The lie says only that the label changed: the count, first in the record, is
        // where the changes and the state part.
        #expect(
            output.contains(
                "error: changes.changes: what the plugin reported as changed does not give its state (--check-changes): at count the changes give 0, the state is 1"
            ), "\(output)")
        #expect(output.last == #""c""#, "the whole snapshot is what is shown")
        #expect(shell.core.hostErrors >= 1, "the run fails")
        #expect(
            await shell.run("mode 0", "increment").contains { $0.contains("does not give its state") } == false,
            "the truth passes")
    }
}
