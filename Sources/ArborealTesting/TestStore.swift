public import Arboreal
@_exported public import StoreTestingShared

/// A store for tests of Arboreal models, in the manner of The Composable Architecture's
/// `TestStore`: every action sent or received is checked against the change the test says
/// it makes to the model's properties, and effects must be accounted for.
///
/// ```swift
/// let store = TestStore(state: CounterModel(), environment: env)
/// await store.send(.incrementLater) { $0.pending = true }
/// await store.receive(.increment) { $0.count = 1; $0.pending = false }
/// await store.finish()
/// ```
///
/// The model is a reference that changes in place, so the store compares pictures of it
/// taken by reflection (`ModelSnapshot`) before and after each action. The assertion
/// closure writes to an `Expected` proxy; to compare, the store sets those properties on
/// the model for a moment and puts the actual values back — observers of the model see
/// those writes. Actions effects send wait, unapplied, until `receive` applies and checks
/// them, so each is checked against the model exactly as it found it.
@MainActor
public final class TestStore<Model: ArborealModel> where Model.Action: Equatable {
    /// How strictly the test must account for what happens (`.on` or `.off`).
    public typealias Exhaustivity = StoreTestingShared.Exhaustivity

    /// The store under test: its model, environment and effects are real.
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
    /// Actions effects sent, waiting to be applied by `receive`, in the order they came,
    /// each with the function that applies it; skipping one applies it, unchecked.
    private let engine: TestStoreEngine<Model.Action, @MainActor () -> Void>

    /// A test store running `state`.
    public init(
        state: Model, environment: Model.Environment, exhaustivity: Exhaustivity = .on, timeout: Duration = .seconds(5),
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) {
        let store = Store(state: state, environment: environment)
        self.store = store
        engine = TestStoreEngine(
            exhaustivity: exhaustivity, timeout: timeout,
            created: TestLocation(fileID: fileID, filePath: filePath, line: line, column: column),
            effectsInFlight: { store.effectsInFlight },
            skip: { apply in apply() }
        )
        store.holdEffectAction = { [weak self] action, apply in self?.engine.enqueue(action, apply) }
    }

    /// The model.
    public var state: Model { store.state }

    /// Sends `action` and checks the change: `assert` writes what the model's properties
    /// must be after it (nil: nothing may change). Exhaustive stores also fail when
    /// actions effects sent are still waiting for `receive`; non-exhaustive ones apply
    /// those first.
    public func send(
        _ action: Model.Action,
        assert: ((Expected<Model>) -> Void)? = nil,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async {
        let location = TestLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        engine.willSend(action, at: location)
        check(TestWording.sending(action), assert, at: location) { store.send(action) }
    }

    /// Waits (up to `timeout`) for the next action an effect sent, checks it is
    /// `expected`, applies it and checks the change as `send` does. A non-exhaustive store
    /// first applies, unchecked, the actions that came before the first one equal to
    /// `expected`.
    public func receive(
        _ expected: Model.Action,
        timeout: Duration? = nil,
        assert: ((Expected<Model>) -> Void)? = nil,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async {
        let location = TestLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        guard let next = await engine.receive(expected, timeout: timeout, at: location) else { return }
        check(TestWording.receiving(next.action), assert, at: location, perform: next.received)
    }

    /// Waits (up to `timeout`) for every effect to finish; an exhaustive store then fails
    /// for effects still running and for actions effects sent that no `receive` checked.
    public func finish(
        timeout: Duration? = nil,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async {
        await engine.finish(
            timeout: timeout, at: TestLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    /// Moves `clock` (the test clock the model's environment sleeps on) forward, letting
    /// the effects that wake run; their actions then wait for `receive`. It first lets the
    /// effects in flight reach their sleeps (up to `timeout`).
    public func advance(_ clock: TestClock, by duration: Duration) async {
        await engine.advance(clock, by: duration)
    }

    /// Applies, unchecked, the actions effects sent that are waiting for `receive` (an
    /// exhaustive test that does not care about them says so).
    public func skipReceivedActions() {
        engine.skipAll()
    }

    isolated deinit {
        engine.testEnded()
    }

    /// Runs `perform` (one action) between pictures of the model and checks the change
    /// against what `assert` wrote: the written values must hold, and — exhaustively — the
    /// written properties must be all that changed.
    private func check(
        _ what: String, _ assert: ((Expected<Model>) -> Void)?, at location: TestLocation, perform: () -> Void
    ) {
        let model = store.state
        let before = ModelSnapshot(of: model)
        let book = ExpectationBook()
        assert?(Expected(place: \Model.self, book: book) { [weak model] in model })
        book.stopRecording()
        if ModelSnapshot(of: model) != before {
            location.fail(
                "the assertion \(what) changed the model itself: it reached a model object the test store cannot record writes to (in a dictionary, or by a method call); write the properties through the closure's argument"
            )
        }
        perform()
        let after = ModelSnapshot(of: store.state)
        guard let stated = book.picture(of: store.state, with: \.expected),
            let unstated = book.picture(of: store.state, with: \.before)
        else {
            return location.fail("a model object the assertion \(what) wrote to is no longer in the model")
        }
        if stated != after {
            location.fail(TestWording.notAsExpected(what), TestWording.difference(stated.text, after.text))
        } else if exhaustivity == .on, unstated != before {
            let headline =
                book.isEmpty
                ? TestWording.changedUnexpectedly(what)
                : "the state changed \(what) in ways the assertion does not state"
            location.fail(headline, TestWording.difference(before.text, unstated.text, legend: "(before: −, after: +)"))
        }
    }
}
