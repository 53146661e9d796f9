import CStorePlugin
import HostTestSupport
import StoreHost
import StoreShell
import StoreValue
import Testing

@MainActor
@Suite("Undoing an action whose effect is in flight")
struct UndoWithEffectInFlightTests {
    @Test(arguments: [PluginHost.Isolation.inProcess, .workers])
    func theEffectIsCancelledAndNeverAnswers(isolation: PluginHost.Isolation) async throws {
        let shell = try ShellHarness(plugins: ["Auth"], isolation: isolation)
        _ = await shell.run(":diff off")
        // A snapshot is kept every 64 actions: the undo restores the one at 64.
        for _ in 0..<64 { _ = await shell.run("signOut") }
        _ = await shell.run(#"authenticate user: "bo", password: "open sesame""#)
        let undone = await shell.run(":undo", ":fx")
        #expect(undone == ["fx #1 authenticate cancelled (+0ms)", "at 64 of 65", "no effects in flight"])
        _ = await shell.run(":advance 1s")
        try await Task.sleep(for: .milliseconds(100))
        let after = await shell.run(":fx", ":state phase", ":log 64-65")
        #expect(
            after == [
                "no effects in flight", #""signedOut""#, "… 63 earlier actions (:log 1-20 shows the first 20)",
                "64  script  signOut  (no change)",
                #"65  script  authenticate user: "bo", password: "open sesame"  (undone)"#, "at 64 of 65",
            ])
    }

    /// A jump to before the first snapshot starts from a new store instead of a restore;
    /// it says the same. Before, the effect vanished without a word there, so whether a
    /// jump printed the cancellation depended on how long the history was.
    @Test(arguments: [PluginHost.Isolation.inProcess, .workers])
    func aJumpFromANewStoreSaysTheSame(isolation: PluginHost.Isolation) async throws {
        let shell = try ShellHarness(plugins: ["Auth"], isolation: isolation)
        _ = await shell.run(":diff off", "signOut", #"authenticate user: "bo", password: "open sesame""#)
        let undone = await shell.run(":undo", ":fx")
        #expect(undone == ["fx #1 authenticate cancelled (+0ms)", "at 1 of 2", "no effects in flight"])
        _ = await shell.run(#"authenticate user: "bo", password: "open sesame""#)
        let reset = await shell.run(":reset", ":fx")
        #expect(
            reset.first == "fx #1 authenticate cancelled (+0ms)" && reset.last == "no effects in flight", "\(reset)")
    }
}
