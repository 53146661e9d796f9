import HostTestSupport
import StoreHost
import StoreShell
import StoreValue
import Testing

/// Script lines sent to a model in a worker in batches (`ShellCore.executeActions`):
/// quiet ones, and ones whose results are shown.
@MainActor
@Suite("Batches and Ctrl-C")
struct BatchInterruptTests {
    /// Ctrl-C while batches are in flight (seen between batches, or while the worker is
    /// waited for, which stops it): what was applied is kept (and shown), nothing is lost
    /// or applied twice, and the script stops before the first line not applied. Before,
    /// a Ctrl-C that came while the worker was waited for restarted it and the script
    /// went on.
    @Test(arguments: [false, true], [1, 2, 3, 5])
    func ctrlCKeepsWhatWasAppliedAndStopsBeforeTheRest(quiet: Bool, afterChecks: Int) throws {
        let shell = try ShellHarness(isolation: .workers)
        shell.core.reportActions = !quiet
        var checks = 0
        shell.core.takeInterrupt = {
            checks += 1
            return checks == afterChecks
        }
        let lines = (1...2_000).map { (text: "increment", origin: LineOrigin(file: "s.storesh", line: $0)) }
        let run = shell.core.executeActions(lines, stopAtFailure: false)
        let pressed = checks >= afterChecks
        shell.core.takeInterrupt = { false }
        let count = try #require(
            shell.core.current?.state["count"].flatMap { if case .int(let n) = $0 { Int(n) } else { nil } })
        let errors = shell.outputs.compactMap { if case .error(let error) = $0 { error } else { nil } }
        guard pressed else {
            // The run asked fewer times than that (a quiet run of 2,000 is one batch).
            #expect(!run.stopped && errors.isEmpty && count == 2_000)
            return
        }
        #expect(run.stopped)
        #expect(run.failures == 1)
        #expect(errors.map(\.message) == ["interrupted (Ctrl-C): the script stops before this line"])
        #expect(errors.first?.origin.line == count + 1, "the first line not applied")
        #expect(count < 2_000)
        if !quiet {
            let shown = shell.outputs.filter { if case .action = $0 { true } else { false } }.count
            #expect(shown == count, "what was shown is what was applied")
        }
    }
}
