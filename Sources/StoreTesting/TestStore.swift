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
    private let created: TestLocation

    /// A test store starting at `state`.
    public init(
        state: Model, environment: Model.Environment, exhaustivity: Exhaustivity = .on, timeout: Duration = .seconds(5),
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) {
        created = TestLocation(fileID: fileID, filePath: filePath, line: line, column: column)
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
        let location = TestLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        if exhaustivity == .on, !received.isEmpty {
            location.fail(TestWording.mustReceive(received.map { TestWording.describe($0.action) }, beforeSending: TestWording.describe(action)))
        } else if exhaustivity == .off {
            received.removeAll()
        }
        let before = store.state
        store.send(action)
        let after = store.state
        lastState = after
        check(before: before, after: after, assert, what: "sending \(TestWording.describe(action))", at: location)
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
        let limit = timeout ?? self.timeout
        let deadline = ContinuousClock.now + limit
        while true {
            if exhaustivity == .off, let index = received.firstIndex(where: { $0.action == expected }) {
                received.removeFirst(index)
            }
            if !received.isEmpty, exhaustivity == .on || received[0].action == expected { break }
            guard ContinuousClock.now < deadline else {
                location.fail(TestWording.didNotArrive(TestWording.describe(expected), within: limit, arrived: received.map { TestWording.describe($0.action) }, running: store.effectsInFlight))
                return
            }
            await EffectTurns.next()
        }
        let next = received.removeFirst()
        if next.action != expected {
            let difference = TestWording.difference(expected, next.action, legend: "(expected: −, received: +)")
            location.fail("received an action other than the one expected" + difference)
        }
        check(before: next.before, after: next.after, assert, what: "receiving \(TestWording.describe(next.action))", at: location)
    }

    /// Waits (up to `timeout`) for every effect to finish; an exhaustive store then fails
    /// for effects still running and for received actions no `receive` checked.
    public func finish(
        timeout: Duration? = nil,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async {
        finished = true
        let location = TestLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        await EffectAccounting.finish(
            waitingAtMost: timeout ?? self.timeout, exhaustive: exhaustivity == .on, at: location,
            running: { store.effectsInFlight }, unreceived: { received.map { TestWording.describe($0.action) } }
        )
    }

    /// Moves `clock` (the test clock the model's environment sleeps on) forward, letting
    /// the effects that wake run; their actions then wait for `receive`. It first lets the
    /// effects in flight reach their sleeps (up to `timeout`), so a sleep that had not
    /// started yet is not measured from the moved time.
    public func advance(_ clock: TestClock, by duration: Duration) async {
        await EffectAccounting.advance(clock, by: duration, waitingAtMost: timeout) { store.effectsInFlight }
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
            created.fail(TestWording.leftBehind(effects: store.effectsInFlight, actions: received.count))
        }
    }

    private func check(before: Model, after: Model, _ assert: ((inout Model) -> Void)?, what: String, at location: TestLocation) {
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
        let difference = TestWording.difference(expected, after)
        let headline = assert == nil
            ? "the state changed \(what), but no change was expected"
            : "the state \(what) is not what was expected"
        location.fail(headline + difference)
    }
}
