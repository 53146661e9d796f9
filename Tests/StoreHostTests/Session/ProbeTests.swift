import Foundation
import HostTestSupport
import StoreHost
import StoreValue
import Testing

/// `Session.probe`, `storesh explore`'s hot path, on the ring buffer of
/// Tests/Plugins/planted.c: it must find what sending the actions one at a time finds —
/// the same states (by hash), the same refusals, a stop at the action that breaks a
/// check — in this process and in a worker alike.
@MainActor
@Suite("A probe gives what sending one action at a time gives")
struct ProbeTests {
    /// The ring buffer's plugin, fixed (`-DFIXED`) or with its bug (its size goes on
    /// counting when it is full).
    private func ring(fixed: Bool, isolation: PluginHost.Isolation) async throws -> (PluginHost, ModelDescriptor) {
        let source = try String(
            contentsOf: Fixtures.repository.appendingPathComponent("Tests/Plugins/planted.c"), encoding: .utf8)
        let name = fixed ? "libplanted-fixed.so" : "libplanted.so"
        let library = try await Fixtures.library(
            name, source: (fixed ? "#define FIXED 1\n" : "") + source, in: Fixtures.directory())
        let host = makeHost()
        host.isolation = isolation
        try host.load(library)
        return (host, try host.model(named: "planted.ring"))
    }

    private func steps(_ model: ModelDescriptor, _ list: [(String, [Value])]) -> [(ActionDescriptor, [Value])] {
        list.map { (model.action(named: $0.0)!, $0.1) }
    }

    private static let size = try! StateCondition.parse("size == count(contents)")

    @Test(arguments: [PluginHost.Isolation.inProcess, .workers])
    func statesAndRefusalsAreThoseOfOneActionAtATime(isolation: PluginHost.Isolation) async throws {
        let (host, model) = try await ring(fixed: true, isolation: isolation)
        let actions = steps(
            model,
            [
                ("push", [.int(1)]), ("push", [.int(2)]), ("push", [.string("three")]), ("push", [.int(3)]),
                ("clear", []), ("push", [.int(4)]),
            ])
        var accepted: [Bool] = []
        var hashes: [Int] = []
        let oneByOne = try Session(model: model, host: host)
        for (action, arguments) in actions {
            do {
                _ = try oneByOne.send(action, arguments: arguments)
                accepted.append(true)
            } catch {
                accepted.append(false)
            }
            hashes.append(oneByOne.state.stableHash)
        }
        #expect(accepted == [true, true, false, true, true, true], "a string is no int: refused")
        let probed = try Session(model: model, host: host)
        let checks = ProbeChecks(invariants: [Self.size], postconditions: [], inCode: false)
        let outcome = try #require(try probed.probe(actions, checks: checks))
        #expect(outcome.end == .ran)
        #expect(outcome.accepted == accepted)
        #expect(outcome.stateHashes == hashes)
        #expect(probed.state == oneByOne.state, "the session holds the state after the last action")
        // And the store goes on from there, as any store does.
        _ = try probed.send(text: "push 5")
        _ = try oneByOne.send(text: "push 5")
        #expect(probed.state == oneByOne.state)
    }

    @Test(arguments: [PluginHost.Isolation.inProcess, .workers])
    func itStopsAfterTheActionThatBreaksAnInvariant(isolation: PluginHost.Isolation) async throws {
        let (host, model) = try await ring(fixed: false, isolation: isolation)
        let session = try Session(model: model, host: host)
        let pushes = steps(model, (1...5).map { ("push", [.int(Int64($0))]) })
        let checks = ProbeChecks(invariants: [Self.size], postconditions: [], inCode: false)
        let outcome = try #require(try session.probe(pushes, checks: checks))
        #expect(outcome.end == .broke)
        #expect(outcome.accepted == [true, true, true], "the third push breaks it: size 3, two items")
        #expect(outcome.stateHashes.count == 3)
        #expect(outcome.stateAfter == nil)
    }

    @Test(arguments: [PluginHost.Isolation.inProcess, .workers])
    func aPostconditionReadsTheStateBeforeItsAction(isolation: PluginHost.Isolation) async throws {
        let (host, model) = try await ring(fixed: true, isolation: isolation)
        let grows = ExplorePostcondition(
            action: "push", condition: try StateCondition.parse("size == old(size) + 1", context: .action))
        let checks = ProbeChecks(invariants: [], postconditions: [grows], inCode: false)
        let session = try Session(model: model, host: host)
        let outcome = try #require(
            try session.probe(
                steps(model, [("push", [.int(1)]), ("clear", []), ("push", [.int(2)]), ("push", [.int(3)])]),
                checks: checks))
        #expect(outcome.end == .ran, "clear is not a push: its postconditions are not asked")
        let full = try #require(
            try session.probe(steps(model, [("push", [.int(4)]), ("push", [.int(5)])]), checks: checks))
        #expect(full.end == .broke, "a buffer of two that is full keeps its size")
        #expect(full.accepted == [true])
    }

    @Test func aWorkerAndThisProcessHashAStateAlike() async throws {
        var hashes: [[Int]] = []
        for isolation in [PluginHost.Isolation.inProcess, .workers] {
            let (host, model) = try await ring(fixed: true, isolation: isolation)
            let session = try Session(model: model, host: host)
            let checks = ProbeChecks(invariants: [], postconditions: [], inCode: false)
            let outcome = try #require(
                try session.probe(steps(model, (1...4).map { ("push", [.int(Int64($0 * 7))]) }), checks: checks))
            hashes.append(outcome.stateHashes)
            #expect(outcome.stateHashes.last == session.state.stableHash)
        }
        #expect(hashes[0] == hashes[1], "one hash in every process: a worker started again agrees with the last")
    }
}
