public import ObservableStore
import CustomDump
import Dispatch
import Testing
import XCTest

/// A store for tests, in the manner of The Composable Architecture's `TestStore`, for
/// ObservableStore models: every action sent or received is checked against the state
/// change the test says it makes, and effects must be accounted for.
///
/// ```swift
/// let store = TestStore(state: Counter(), environment: env)
/// await store.send(.incrementLater) { $0.pending = true }
/// await store.receive(.increment) { $0.count = 1; $0.pending = false }
/// await store.finish()
/// ```
///
/// It runs a real `Store`, so effects run as in an app; the actions they send are applied
/// in the order they arrive and queued for `receive`, which checks them in that order.
/// Failures are reported (Swift Testing or XCTest, whichever runs the test) at the line of
/// the `send` or `receive`, with a diff of the expected and actual state.
@MainActor
public final class TestStore<Model: ModelProtocol> where Model.Action: Equatable {
    /// How strictly the test must account for what happens.
    public enum Exhaustivity: Sendable, Equatable {
        /// Every state change, every received action and every effect must be asserted.
        case on
        /// Only what the test states is checked: an assertion closure's assignments must
        /// hold, received actions the test does not ask for are skipped, and effects may
        /// still run at the end.
        case off
    }

    /// The store under test: its state, environment and effects are real.
    public let store: Store<Model>
    public var exhaustivity: Exhaustivity
    /// How long `receive` and `finish` wait for effects (real time).
    public var timeout: Duration
    /// Actions effects sent and the store applied, not yet checked by `receive`, with the
    /// state before and after each.
    private var received: [(action: Model.Action, before: Model, after: Model)] = []
    /// The state after the last action accounted for (sent, or applied from an effect).
    private var lastState: Model
    private var finished = false
    /// Where the test made the store: unfinished work at its end is reported there.
    private let created: Location

    /// A test store starting at `state`.
    public init(
        state: Model, environment: Model.Environment, exhaustivity: Exhaustivity = .on, timeout: Duration = .seconds(5),
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) {
        created = Location(fileID: fileID, filePath: filePath, line: line, column: column)
        store = Store(state: state, environment: environment)
        self.exhaustivity = exhaustivity
        self.timeout = timeout
        lastState = state
        store.onEffectAction = { [weak self] _, action in self?.applied(action) }
    }

    /// The current state.
    public var state: Model { store.state }

    private func applied(_ action: Model.Action) {
        let after = store.state
        received.append((action, lastState, after))
        lastState = after
    }

    /// Sends `action` and checks the state change: `assert` mutates a copy of the state
    /// before into what the state after must be (nil: it must not change). Exhaustive
    /// stores also fail when actions effects sent are still waiting for `receive`.
    public func send(
        _ action: Model.Action,
        assert: ((inout Model) -> Void)? = nil,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async {
        let location = Location(fileID: fileID, filePath: filePath, line: line, column: column)
        if exhaustivity == .on, !received.isEmpty {
            fail("must receive \(received.count) action\(received.count == 1 ? "" : "s") before sending \(describe(action)); not received: \(received.map { describe($0.action) }.joined(separator: ", "))", at: location)
        } else if exhaustivity == .off {
            received.removeAll()
        }
        let before = store.state
        store.send(action)
        let after = store.state
        lastState = after
        check(before: before, after: after, assert, what: "sending \(describe(action))", at: location)
    }

    /// Waits (up to `timeout`) for the next action an effect sent, checks it is
    /// `expected`, and checks the state change it made as `send` does. A non-exhaustive
    /// store skips the actions before the first one equal to `expected`.
    public func receive(
        _ expected: Model.Action,
        timeout: Duration? = nil,
        assert: ((inout Model) -> Void)? = nil,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async {
        let location = Location(fileID: fileID, filePath: filePath, line: line, column: column)
        let limit = timeout ?? self.timeout
        let deadline = ContinuousClock.now + limit
        while true {
            if exhaustivity == .off, let index = received.firstIndex(where: { $0.action == expected }) {
                received.removeFirst(index)
            }
            if !received.isEmpty, exhaustivity == .on || received[0].action == expected { break }
            guard ContinuousClock.now < deadline else {
                let running = store.effectsInFlight
                fail("expected to receive \(describe(expected)) within \(limit), but \(received.isEmpty ? "no action arrived" : "only \(received.map { describe($0.action) }.joined(separator: ", ")) arrived") (\(running) effect\(running == 1 ? "" : "s") still running)", at: location)
                return
            }
            await Self.nextTurn()
        }
        let next = received.removeFirst()
        if next.action != expected {
            let difference = diff(expected, next.action, format: .proportional).map { "\n\n\($0)\n\n(expected: −, received: +)" } ?? ""
            fail("received an action other than the one expected" + difference, at: location)
        }
        check(before: next.before, after: next.after, assert, what: "receiving \(describe(next.action))", at: location)
    }

    /// Waits (up to `timeout`) for every effect to finish; an exhaustive store then fails
    /// for effects still running and for received actions no `receive` checked.
    public func finish(
        timeout: Duration? = nil,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async {
        finished = true
        let location = Location(fileID: fileID, filePath: filePath, line: line, column: column)
        let limit = timeout ?? self.timeout
        let deadline = ContinuousClock.now + limit
        while store.effectsInFlight > 0, ContinuousClock.now < deadline {
            await Self.nextTurn()
        }
        guard exhaustivity == .on else { return }
        if store.effectsInFlight > 0 {
            fail("\(store.effectsInFlight) effect\(store.effectsInFlight == 1 ? " is" : "s are") still running after \(limit); wait longer (finish(timeout:)), cancel \(store.effectsInFlight == 1 ? "it" : "them") in the model, or make the store non-exhaustive", at: location)
        }
        if !received.isEmpty {
            fail("\(received.count) received action\(received.count == 1 ? " was" : "s were") not checked with receive: \(received.map { describe($0.action) }.joined(separator: ", "))", at: location)
        }
    }

    /// Moves `clock` (the test clock the model's environment sleeps on) forward, letting
    /// the effects that wake run; their actions then wait for `receive`. It first lets the
    /// effects in flight reach their sleeps (up to `timeout`), so a sleep that had not
    /// started yet is not measured from the moved time.
    public func advance(_ clock: TestClock, by duration: Duration) async {
        let deadline = ContinuousClock.now + timeout
        while clock.sleeping < store.effectsInFlight, ContinuousClock.now < deadline {
            await Self.nextTurn()
        }
        await clock.advance(by: duration)
    }

    /// Drops the received actions not yet checked (an exhaustive test that does not care
    /// about them says so).
    public func skipReceivedActions() {
        received.removeAll()
        lastState = store.state
    }

    isolated deinit {
        guard exhaustivity == .on, !finished else { return }
        if store.effectsInFlight > 0 || !received.isEmpty {
            fail("the test ended with \(store.effectsInFlight) effect(s) running and \(received.count) received action(s) not checked; end it with await store.finish()", at: created)
        }
    }

    private func check(before: Model, after: Model, _ assert: ((inout Model) -> Void)?, what: String, at location: Location) {
        var expected: Model
        switch exhaustivity {
        case .on:
            expected = before
            assert?(&expected)
        case .off:
            // Only what the closure sets is checked: applied to the actual state, it must
            // change nothing.
            expected = after
            assert?(&expected)
        }
        guard expected != after else { return }
        let difference = diff(expected, after, format: .proportional).map { "\n\n\($0)\n\n(expected: −, actual: +)" } ?? ""
        let headline = assert == nil
            ? "the state changed \(what), but no change was expected"
            : "the state \(what) is not what was expected"
        fail(headline + difference, at: location)
    }

    private func describe(_ action: Model.Action) -> String {
        var text = ""
        customDump(action, to: &text, maxDepth: 2)
        return text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
    }

    /// Records a failure with the test framework running the test: Swift Testing when it
    /// runs one, XCTest otherwise.
    private func fail(_ message: String, at location: Location) {
        if Test.current != nil {
            Issue.record(
                Comment(rawValue: message),
                sourceLocation: SourceLocation(fileID: "\(location.fileID)", filePath: "\(location.filePath)", line: Int(location.line), column: Int(location.column))
            )
        } else {
            XCTFail(message, file: location.filePath, line: location.line)
        }
    }

    /// One turn of the main queue and a moment for effects on other threads.
    private static func nextTurn() async {
        await withCheckedContinuation { continuation in
            DispatchQueue.main.async { continuation.resume() }
        }
        try? await Task.sleep(for: .milliseconds(1))
    }

    private struct Location {
        let fileID: StaticString
        let filePath: StaticString
        let line: UInt
        let column: UInt
    }
}
