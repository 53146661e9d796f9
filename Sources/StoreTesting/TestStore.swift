public import ObservableStore
@_exported public import StoreTestingShared

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
    /// How strictly the test must account for what happens (`.on` or `.off`).
    public typealias Exhaustivity = StoreTestingShared.Exhaustivity

    /// The store under test: its state, environment and effects are real.
    public let store: Store<Model>
    /// How strictly the test must account for what happens; may change mid-test.
    public var exhaustivity: Exhaustivity {
        get { engine.exhaustivity }
        set { engine.exhaustivity = newValue }
    }
    /// How long `receive` and `finish` wait for effects (real time).
    public var timeout: Duration {
        get { engine.timeout }
        set { engine.timeout = newValue }
    }
    /// Actions effects sent and the store applied, queued for `receive` with the state
    /// before and after each; skipping one drops it (it is applied already).
    private let engine: TestStoreEngine<Model.Action, (before: Model, after: Model)>
    /// The state after the last action accounted for (sent, or applied from an effect).
    private var lastState: Model

    /// A test store starting at `state`.
    public init(
        state: Model, environment: Model.Environment, exhaustivity: Exhaustivity = .on, timeout: Duration = .seconds(5),
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) {
        let store = Store(state: state, environment: environment)
        self.store = store
        engine = TestStoreEngine(
            exhaustivity: exhaustivity, timeout: timeout,
            created: TestLocation(fileID: fileID, filePath: filePath, line: line, column: column),
            effectsInFlight: { store.effectsInFlight }
        )
        lastState = state
        store.onEffectAction = { [weak self] _, action in self?.applied(action) }
    }

    /// The current state.
    public var state: Model { store.state }

    private func applied(_ action: Model.Action) {
        let after = store.state
        engine.enqueue(action, (lastState, after))
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
        let location = TestLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        engine.willSend(action, at: location)
        let before = store.state
        store.send(action)
        let after = store.state
        lastState = after
        check(before: before, after: after, assert, what: TestWording.sending(action), at: location)
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
        let location = TestLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        guard let next = await engine.receive(expected, timeout: timeout, at: location) else { return }
        check(
            before: next.received.before, after: next.received.after, assert, what: TestWording.receiving(next.action),
            at: location)
    }

    /// Waits (up to `timeout`) for every effect to finish; an exhaustive store then fails
    /// for effects still running and for received actions no `receive` checked.
    public func finish(
        timeout: Duration? = nil,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async {
        await engine.finish(
            timeout: timeout, at: TestLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    /// Moves `clock` (the test clock the model's environment sleeps on) forward, letting
    /// the effects that wake run; their actions then wait for `receive`. It first lets the
    /// effects in flight reach their sleeps (up to `timeout`), so a sleep that had not
    /// started yet is not measured from the moved time.
    public func advance(_ clock: TestClock, by duration: Duration) async {
        await engine.advance(clock, by: duration)
    }

    /// Drops the received actions not yet checked (an exhaustive test that does not care
    /// about them says so).
    public func skipReceivedActions() {
        engine.skipAll()
        lastState = store.state
    }

    isolated deinit {
        engine.testEnded()
    }

    /// Checks a change against `assert`, which mutates a copy of a state into what the
    /// state after must be: exhaustively the state before, so all that changed must be
    /// stated; non-exhaustively the state after, so what it states must hold.
    private func check(
        before: Model, after: Model, _ assert: ((inout Model) -> Void)?, what: String, at location: TestLocation
    ) {
        var expected = exhaustivity == .on ? before : after
        assert?(&expected)
        guard expected != after else { return }
        let headline = assert == nil ? TestWording.changedUnexpectedly(what) : TestWording.notAsExpected(what)
        location.fail(headline, TestWording.difference(expected, after))
    }
}
