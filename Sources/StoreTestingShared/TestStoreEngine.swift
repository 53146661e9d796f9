/// What both test stores run on — all but how a state change is checked: the actions
/// effects sent, queued in the order they came for `receive` to check; what exhaustivity
/// asks of `send`, `receive`, `finish` and the end of the test; waiting for effects; and
/// the failures for each, reported where the test made the call.
///
/// Each queued action comes with what its test store keeps to check it (`Received`): the
/// states before and after (ObservableStore, whose store applies the action when it
/// arrives), or the function that applies it (Arboreal, whose actions wait unapplied).
/// An action skipped unchecked is handed to `skip`.
@MainActor
package final class TestStoreEngine<Action: Equatable, Received> {
    /// How strictly the test must account for what happens; may change mid-test.
    package var exhaustivity: Exhaustivity
    /// How long `receive` and `finish` wait for effects (real time).
    package var timeout: Duration
    /// Actions effects sent, not yet checked by `receive`, in the order they came.
    private var queue: [(action: Action, received: Received)] = []
    private var finished = false
    /// Where the test made the store: unfinished work at its end is reported there.
    private let created: TestLocation
    private let effectsInFlight: @MainActor () -> Int
    private let skip: @MainActor (Received) -> Void

    /// An engine for a store whose effects in flight `effectsInFlight` counts; `skip`
    /// receives, in order, each queued action a test skips unchecked.
    package init(
        exhaustivity: Exhaustivity, timeout: Duration, created: TestLocation,
        effectsInFlight: @escaping @MainActor () -> Int,
        skip: @escaping @MainActor (Received) -> Void = { _ in }
    ) {
        self.exhaustivity = exhaustivity
        self.timeout = timeout
        self.created = created
        self.effectsInFlight = effectsInFlight
        self.skip = skip
    }

    /// Queues an action an effect sent, for `receive`.
    package func enqueue(_ action: Action, _ received: Received) {
        queue.append((action, received))
    }

    /// Before the test sends `action`: an exhaustive store fails when actions effects sent
    /// are still waiting for `receive`; a non-exhaustive one skips them.
    package func willSend(_ action: Action, at location: TestLocation) {
        if exhaustivity == .on, !queue.isEmpty {
            location.fail(TestWording.mustReceive(queuedActions, beforeSending: TestWording.describe(action)))
        } else if exhaustivity == .off {
            skip(count: queue.count)
        }
    }

    /// Waits (up to `timeout`, or the store's) for the next action an effect sent and
    /// takes it from the queue, failing when it is not `expected`; nil, after failing,
    /// when none came in time. A non-exhaustive store skips the actions before the first
    /// one equal to `expected`, and waits for that one.
    package func receive(_ expected: Action, timeout: Duration?, at location: TestLocation) async -> (
        action: Action, received: Received
    )? {
        let limit = timeout ?? self.timeout
        await EffectTurns.wait(atMost: limit) {
            exhaustivity == .on ? queue.isEmpty : !queue.contains { $0.action == expected }
        }
        if exhaustivity == .off, let index = queue.firstIndex(where: { $0.action == expected }) {
            skip(count: index)
        }
        guard !queue.isEmpty, exhaustivity == .on || queue[0].action == expected else {
            location.fail(
                TestWording.didNotArrive(
                    TestWording.describe(expected), within: limit, arrived: queuedActions, running: effectsInFlight()))
            return nil
        }
        let next = queue.removeFirst()
        if next.action != expected {
            location.fail(
                "received an action other than the one expected",
                TestWording.difference(expected, next.action, legend: "(expected: −, received: +)"))
        }
        return next
    }

    /// `finish()`: lets effects run for up to `timeout` (or the store's); an exhaustive
    /// store then fails for effects still running and for actions effects sent that no
    /// `receive` checked.
    package func finish(timeout: Duration?, at location: TestLocation) async {
        finished = true
        let limit = timeout ?? self.timeout
        let exhaustive = exhaustivity == .on
        await EffectTurns.wait(atMost: limit) { effectsInFlight() > 0 }
        guard exhaustive else { return }
        let stillRunning = effectsInFlight()
        if stillRunning > 0 { location.fail(TestWording.stillRunning(stillRunning, after: limit)) }
        if !queue.isEmpty { location.fail(TestWording.notReceived(queuedActions)) }
    }

    /// `advance(_:by:)`: lets the effects in flight reach their sleeps (up to `timeout`,
    /// so a sleep not yet started is not measured from the moved time), then moves the
    /// clock.
    package func advance(_ clock: TestClock, by duration: Duration) async {
        await EffectTurns.wait(atMost: timeout) { clock.sleeping < effectsInFlight() }
        await clock.advance(by: duration)
    }

    /// Skips every queued action, unchecked.
    package func skipAll() {
        skip(count: queue.count)
    }

    /// The test store is going away: an exhaustive one that never finished fails, where
    /// the test made it, for effects still running and actions no `receive` checked.
    package func testEnded() {
        guard exhaustivity == .on, !finished else { return }
        let running = effectsInFlight()
        if running > 0 || !queue.isEmpty {
            created.fail(TestWording.leftBehind(effects: running, actions: queue.count))
        }
    }

    private var queuedActions: [String] { queue.map { TestWording.describe($0.action) } }

    /// Takes the first `count` actions from the queue, then hands each to `skip`.
    private func skip(count: Int) {
        let skipped = queue.prefix(count)
        queue.removeFirst(count)
        for entry in skipped { skip(entry.received) }
    }
}
