import ObservableStore
import StoreTesting
import Testing

/// A counter whose `incrementLater` sends `increment` from an effect.
struct Counter: ModelProtocol {
    var count = 0
    var pending = 0

    enum Action: Equatable, Sendable {
        case increment
        case incrementLater
        case incrementTwiceLater
        case never
    }

    static func update(state: Counter, action: Action, environment: Void) -> Update<Counter> {
        var next = state
        switch action {
        case .increment:
            next.count += 1
            next.pending = max(0, next.pending - 1)
            return Update(state: next)
        case .incrementLater:
            next.pending += 1
            return Update(
                state: next,
                fx: Fx<Action>.task {
                    try? await Task.sleep(for: .milliseconds(5))
                    return .increment
                })
        case .incrementTwiceLater:
            next.pending += 2
            return Update(state: next, fx: Fx<Action>.task { .increment })
                .mergeFx(
                    Fx<Action>.task {
                        try? await Task.sleep(for: .milliseconds(20))
                        return .increment
                    })
        case .never:
            return Update(
                state: next,
                fx: Fx<Action>.task {
                    try? await Task.sleep(for: .seconds(3600))
                    return .increment
                })
        }
    }
}

/// What a TestStore failure says.
func message(_ issue: Issue) -> String {
    ([issue.error.map { "\($0)" }].compactMap(\.self) + issue.comments.map(\.rawValue)).joined(separator: "\n")
}

@MainActor
@Suite("TestStore: exhaustive by default")
struct TestStoreTests {
    @Test func sendAndReceiveCheckEveryChange() async {
        let store = TestStore(state: Counter(), environment: (), timeout: .seconds(30))
        await store.send(.increment) { $0.count = 1 }
        await store.send(.incrementLater) { $0.pending = 1 }
        await store.receive(.increment) {
            $0.count = 2
            $0.pending = 0
        }
        await store.finish()
    }

    @Test func receivedActionsComeInTheOrderTheyArrived() async {
        let store = TestStore(state: Counter(), environment: (), timeout: .seconds(30))
        await store.send(.incrementTwiceLater) { $0.pending = 2 }
        await store.receive(.increment) {
            $0.count = 1
            $0.pending = 1
        }
        await store.receive(.increment) {
            $0.count = 2
            $0.pending = 0
        }
        await store.finish()
    }

    @Test func aWrongExpectationFailsWithADiffOfTheState() async {
        let store = TestStore(state: Counter(), environment: (), timeout: .seconds(30))
        await withKnownIssue {
            await store.send(.increment) { $0.count = 2 }
        } matching: { issue in
            let text = message(issue)
            return text.contains("the state sending Counter.Action.increment is not what was expected")
                && text.contains("−   count: 2") && text.contains("+   count: 1")
        }
    }

    @Test func aChangeTheTestDidNotStateFails() async {
        let store = TestStore(state: Counter(), environment: (), timeout: .seconds(30))
        await withKnownIssue {
            await store.send(.increment)
        } matching: { issue in
            message(issue).contains("the state changed sending Counter.Action.increment, but no change was expected")
        }
    }

    @Test func sendingBeforeReceivingFails() async {
        let store = TestStore(state: Counter(), environment: (), timeout: .seconds(30))
        await store.send(.incrementTwiceLater) { $0.pending = 2 }
        while store.store.effectsInFlight > 0 { try? await Task.sleep(for: .milliseconds(1)) }  // their actions are in
        await withKnownIssue {
            await store.send(.increment) {
                $0.count = 3
                $0.pending = 0
            }
        } matching: { issue in
            message(issue).contains("must receive 2 actions before sending Counter.Action.increment")
        }
        store.skipReceivedActions()
        await store.finish()
    }

    @Test func receivingTheWrongActionFails() async {
        let store = TestStore(state: Counter(), environment: (), timeout: .seconds(30))
        await store.send(.incrementLater) { $0.pending = 1 }
        await withKnownIssue {
            await store.receive(.incrementLater) {
                $0.count = 1
                $0.pending = 0
            }
        } matching: { issue in
            message(issue).contains("received an action other than the one expected")
        }
        await store.finish()
    }

    @Test func anEffectStillRunningFailsFinish() async {
        let store = TestStore(state: Counter(), environment: (), timeout: .seconds(30))
        await store.send(.never)
        await withKnownIssue {
            await store.finish(timeout: .milliseconds(50))
        } matching: { issue in
            message(issue).contains("1 effect is still running after")
        }
    }

    @Test func anActionThatNeverArrivesFailsReceive() async {
        let store = TestStore(state: Counter(), environment: (), timeout: .seconds(30))
        await withKnownIssue {
            await store.receive(.increment, timeout: .milliseconds(30))
        } matching: { issue in
            message(issue).contains("expected to receive Counter.Action.increment within")
                && message(issue).contains("no action arrived")
        }
    }

    @Test func anUncheckedReceivedActionFailsFinish() async {
        let store = TestStore(state: Counter(), environment: (), timeout: .seconds(30))
        await store.send(.incrementLater) { $0.pending = 1 }
        while store.store.effectsInFlight > 0 { try? await Task.sleep(for: .milliseconds(1)) }  // their actions are in
        await withKnownIssue {
            await store.finish()
        } matching: { issue in
            message(issue).contains("1 received action was not checked with receive: Counter.Action.increment")
        }
    }
}

@MainActor
@Suite("TestStore: non-exhaustive")
struct NonExhaustiveTestStoreTests {
    @Test func onlyWhatTheTestStatesIsChecked() async {
        let store = TestStore(state: Counter(), environment: (), exhaustivity: .off, timeout: .seconds(30))
        await store.send(.incrementTwiceLater)
        await store.receive(.increment, timeout: .seconds(5)) { $0.count = 1 }
        await store.send(.increment)
        #expect(store.state.count >= 2)
        await store.finish()
    }

    @Test func anAssignmentThatDoesNotHoldStillFails() async {
        let store = TestStore(state: Counter(), environment: (), exhaustivity: .off, timeout: .seconds(30))
        await withKnownIssue {
            await store.send(.increment) { $0.count = 5 }
        } matching: { issue in
            message(issue).contains("the state sending Counter.Action.increment is not what was expected")
        }
    }
}

/// A model whose effect waits on a clock from its environment.
struct Timer: ModelProtocol {
    var ticks = 0
    var waiting = false

    enum Action: Equatable, Sendable { case start, tick, stop }
    struct Environment { let clock: any Clock<Duration> }

    static func update(state: Timer, action: Action, environment: Environment) -> Update<Timer> {
        var next = state
        switch action {
        case .start:
            next.waiting = true
            let clock = environment.clock
            return Update(
                state: next,
                fx: Fx<Action>.task {
                    do {
                        try await clock.sleep(for: .milliseconds(500))
                        return .tick
                    } catch {
                        return .stop
                    }
                }
            ).cancellable(id: "timer", cancelInFlight: true)
        case .tick:
            next.ticks += 1
            next.waiting = false
            return Update(state: next)
        case .stop:
            next.waiting = false
            return Update(state: next).cancelFx(id: "timer")
        }
    }
}

@MainActor
@Suite("TestStore with a test clock")
struct TestClockTests {
    @Test func timeMovesOnlyWhenTheTestSays() async {
        let clock = TestClock()
        let store = TestStore(state: Timer(), environment: .init(clock: clock), timeout: .seconds(30))
        await store.send(.start) { $0.waiting = true }
        await store.advance(clock, by: .milliseconds(499))
        #expect(clock.sleeping == 1, "not due yet: the effect still sleeps")
        await store.advance(clock, by: .milliseconds(1))
        await store.receive(.tick) {
            $0.ticks = 1
            $0.waiting = false
        }
        await store.finish()
    }

    @Test func aCancelledSleepEndsWithoutTheClockMoving() async {
        let clock = TestClock()
        let store = TestStore(state: Timer(), environment: .init(clock: clock), timeout: .seconds(30))
        await store.send(.start) { $0.waiting = true }
        await store.send(.stop) { $0.waiting = false }
        #expect(clock.sleeping == 0)
        await store.finish()
    }

    @Test func sleepsWakeInDeadlineOrder() async {
        let clock = TestClock()
        let order = OrderLog()
        let late = Task {
            try? await clock.sleep(for: .milliseconds(300))
            await order.add("late")
        }
        let early = Task {
            try? await clock.sleep(for: .milliseconds(100))
            await order.add("early")
        }
        while clock.sleeping < 2 { await Task.yield() }
        await clock.advance(by: .seconds(1))
        _ = await (late.value, early.value)
        #expect(await order.entries == ["early", "late"])
    }
}

actor OrderLog {
    var entries: [String] = []
    func add(_ entry: String) { entries.append(entry) }
}

/// A shelf whose books take keyed actions, as a library model's do.
struct Shelf: ModelProtocol {
    var borrowed: [String: String] = [:]

    enum BookAction: Equatable, Sendable { case checkout(member: String) }
    enum Action: Equatable, Sendable { case book(String, BookAction) }

    static func update(state: Shelf, action: Action, environment: Void) -> Update<Shelf> {
        var next = state
        switch action {
        case .book(let id, .checkout(let member)): next.borrowed[id] = member
        }
        return Update(state: next)
    }
}

@MainActor
@Suite("TestStore failure messages")
struct TestStoreWordingTests {
    /// A nested action was printed `Shelf.Action.book( "b1", .checkout(member: "ann") )`.
    @Test func aNestedActionIsWrittenAsCodeIs() async {
        let store = TestStore(state: Shelf(), environment: (), timeout: .seconds(30))
        await withKnownIssue {
            await store.send(.book("b1", .checkout(member: "ann")))
        } matching: { issue in
            message(issue).contains(
                #"the state changed sending Shelf.Action.book("b1", .checkout(member: "ann")), but no change was expected"#
            )
        }
    }

    /// A failure's first line in `swift test` was "… recorded an issue at File.swift:12:5:
    /// Issue recorded", what failed only on the next line. Swift Testing heads an issue with
    /// its kind: the failure is recorded as an error whose description is what failed, and
    /// the diff follows as its comment.
    @Test func theFirstLineSaysWhatFailedAndTheDiffFollows() async {
        let store = TestStore(state: Counter(), environment: (), timeout: .seconds(30))
        await withKnownIssue {
            await store.send(.increment) { $0.count = 2 }
        } matching: { issue in
            "\(issue.kind)" == "Caught error: the state sending Counter.Action.increment is not what was expected"
                // customDump marks an unchanged line with a figure space.
                && issue.comments.map(\.rawValue) == [
                    "\u{2007} Counter(\n−   count: 2,\n+   count: 1,\n\u{2007}   pending: 0\n\u{2007} )\n\n(expected: −, actual: +)"
                ]
        }
        await withKnownIssue {
            await store.finish(timeout: .seconds(30))
            await store.receive(.increment, timeout: .milliseconds(1))
        } matching: { issue in
            "\(issue.kind)"
                == "Caught error: expected to receive Counter.Action.increment within 0.001 seconds, but no action arrived (0 effects still running)"
                && issue.comments.isEmpty
        }
    }
}
