import HostTestSupport
import Testing

@testable import StoreHost

@MainActor
@Suite("A request to a worker that died between requests")
struct DeadWorkerRequestTests {
    /// An effect crashed the worker, and the host noticed while idle (it reads a worker's
    /// pipes between requests) but nothing has recovered it yet. The next request must
    /// report that crash, blaming the effect, as a loss its caller recovers. It said only
    /// "its worker is gone (the session is being recovered)", with no loss: a script then
    /// showed that for one line and never the crash (a CI failure of
    /// `aWorkerAnEffectKilledDuringAScriptIsRecoveredAtOnce`).
    @Test func theNextRequestReportsTheCrashAsALoss() async throws {
        let host = makeHost(clock: RealClock())
        host.isolation = .workers
        try host.load("Faulty")
        let session = try Session(model: host.model(named: "faulty"), host: host)
        _ = try session.send(text: "crashLater 10")
        let worker = try #require(host.plugins.first?.worker)
        for _ in 0..<500 where worker.process?.loss == nil { try await Task.sleep(for: .milliseconds(10)) }
        try #require(worker.process?.loss != nil, "the crash is noticed while idle")
        do {
            _ = try session.send(text: "increment")
            Issue.record("a request to a dead worker succeeded")
        } catch {
            guard case .plugin(let problem) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(problem.workerLoss != nil, "\(problem.message)")
            #expect(
                problem.message.contains("crashed in effect #1 crashLater while handling 'increment'"),
                "\(problem.message)")
        }
    }
}
