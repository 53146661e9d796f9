import CStorePlugin
import HostTestSupport
import StoreHost
import StoreValue
import Testing

/// A credential check that lets everyone in, standing in for the plugin's own.
private let acceptEveryone: @convention(c) (UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> Bool = { _, _ in true }

@MainActor
@Suite("Plugins with effects, on a virtual clock")
struct EffectPluginTests {
    @Test func authSucceedsAfterHalfASecondOfHostTime() async throws {
        let auth = try Harness(plugin: "Auth", model: "auth")
        let result = try auth.session.send(text: #"authenticate user: "bo", password: "open sesame""#)
        #expect(result.effectsStarted == 1)
        #expect(auth.session.state["phase"] == .string("authenticating"))
        await auth.advance(milliseconds: 499)
        #expect(auth.applied.isEmpty, "nothing happens before the deadline")
        auth.clock.advance(by: 1_000_000)
        await eventually { auth.applied.count == 1 }
        #expect(auth.applied == [#"succeed user: "bo""#])
        #expect(auth.session.state["phase"] == .string("signedIn"))
        await eventually { auth.effectLog.count == 3 }
        #expect(auth.effectLog == ["started 1 authenticate", #"emitted 1 succeed user: "bo""#, "finished 1"])
    }

    @Test func authFailsWithTheWrongPassword() async throws {
        let auth = try Harness(plugin: "Auth", model: "auth")
        _ = try auth.session.send(text: #"authenticate("bo", "guess")"#)
        await auth.advance(milliseconds: 500)
        await eventually { auth.session.state["phase"] == .string("failed") }
        #expect(auth.session.state["error"] == .string("wrong user or password"))
    }

    @Test func cancelStopsTheAttemptAndItsTimer() async throws {
        let auth = try Harness(plugin: "Auth", model: "auth")
        _ = try auth.session.send(text: #"authenticate user: "bo", password: "open sesame""#)
        await eventually { auth.clock.nextDeadline != nil }
        let cancelled = try auth.session.send(text: "cancel")
        #expect(cancelled.changes.map(\.description).contains("~ phase: \"authenticating\" → \"signedOut\""))
        await eventually { auth.clock.nextDeadline == nil }
        auth.clock.advance(by: 2_000_000_000)
        try await Task.sleep(for: .milliseconds(20))
        #expect(auth.applied.isEmpty, "a cancelled attempt never answers")
        #expect(auth.effectLog == ["started 1 authenticate", "cancelled 1"])
        #expect(auth.session.state["phase"] == .string("signedOut"))
    }

    @Test func aNewAttemptReplacesTheOneInFlight() async throws {
        let auth = try Harness(plugin: "Auth", model: "auth")
        _ = try auth.session.send(text: #"authenticate user: "a", password: "x""#)
        _ = try auth.session.send(text: #"authenticate user: "b", password: "open sesame""#)
        await auth.advance(milliseconds: 500)
        await eventually { auth.applied.count == 1 }
        #expect(auth.applied == [#"succeed user: "b""#])
        #expect(auth.effectLog.prefix(3) == ["started 1 authenticate", "cancelled 1", "started 2 authenticate"])
    }

    @Test func compositeChildEffectsComeBackTagged() async throws {
        let board = try Harness(plugin: "Composite", model: "composite")
        _ = try board.session.send(text: "child.increment")
        _ = try board.session.send(text: "other.setValue 5")
        let later = try board.session.send(text: "child.incrementLater")
        #expect(later.effectsStarted == 1)
        await board.advance(milliseconds: 1000)
        await eventually { board.applied.count == 1 }
        #expect(board.applied == ["child.increment"])
        #expect(board.session.state["child"]?["value"] == .int(2))
        let reset = try board.session.send(text: "resetAll")
        #expect(reset.changes.map(\.description) == ["~ child.value: 2 → 0", "~ other.value: 5 → 0"])
    }

    @Test func publisherEffectOnTheHostScheduler() async throws {
        let board = try Harness(plugin: "Composite", model: "composite")
        _ = try board.session.send(text: "child.setValue 3")
        _ = try board.session.send(text: "resetLater")
        await board.advance(milliseconds: 1999)
        #expect(board.applied.isEmpty)
        board.clock.advance(by: 1_000_000)
        await eventually { board.applied == ["resetAll"] }
        #expect(board.session.state["child"]?["value"] == .int(0))
    }

    @Test func aServiceReplacedAtStoreCreationIsTheOneCalled() async throws {
        let clock = VirtualClock()
        let host = makeHost(clock: clock)
        try host.load("Auth")
        let model = try host.model(named: "auth")
        #expect(model.services.map(\.name) == ["checkCredentials"])
        #expect(model.services.first?.signature == "ss>b")
        let session = try Session(
            model: model, host: host,
            services: ["checkCredentials": unsafeBitCast(acceptEveryone, to: sp_typed_entry.self)])
        var applied: [String] = []
        session.onEvent = { if case .applied(let action, _, _) = $0 { applied.append(action) } }
        _ = try session.send(text: #"authenticate user: "mallory", password: "wrong""#)
        await eventually { clock.nextDeadline != nil }
        clock.advance(by: 500_000_000)
        await eventually { !applied.isEmpty }
        #expect(applied == [#"succeed user: "mallory""#])
    }

    @Test func arborealEffectOnTheHostClock() async throws {
        let counter = try Harness(plugin: "ArborealCounter", model: "arboreal")
        _ = try counter.session.send(text: "increment")
        let later = try counter.session.send(text: "incrementLater")
        #expect(later.effectsStarted == 1)
        #expect(!later.stateChanged)
        await counter.advance(milliseconds: 1000)
        await eventually { counter.session.state["count"] == .int(2) }
        #expect(counter.applied == ["increment"])
        #expect(counter.effectLog == ["started 1 incrementLater", "emitted 1 increment", "finished 1"])
    }
}

/// storeplugin.h: a restore replaces the state and cancels the effects in flight. The
/// Swift SDK kept the store running the effects until the next action, so an effect
/// started before a jump back could still answer into the state jumped to.
@MainActor
@Suite("Restoring a snapshot in a Swift plugin")
struct SwiftRestoreTests {
    @Test func aRestoreCancelsTheEffectsInFlight() async throws {
        let auth = try Harness(plugin: "Auth", model: "auth")
        let start = auth.session.state
        _ = try auth.session.send(text: #"authenticate user: "bo", password: "open sesame""#)
        await eventually { auth.clock.nextDeadline != nil }
        #expect(try auth.session.restore(start))
        await eventually { auth.effectLog.count == 2 }
        #expect(auth.effectLog == ["started 1 authenticate", "cancelled 1"])
        auth.clock.advance(by: 2_000_000_000)
        try await Task.sleep(for: .milliseconds(20))
        #expect(auth.applied.isEmpty, "the attempt started before the jump never answers")
        #expect(try auth.session.readState() == start)
    }
}

/// The same through the shell, where it was seen: `:undo` of an action whose effect was in
/// flight left the effect running, in process and in a worker. It then answered into the
/// state undone to — `succeed` took the undone action's place in the history — while
/// `:fx` still listed it as running, and a script ended with "effects still running".
