import Dispatch
import StoreHost
import Testing

/// When the answers of asynchronous service calls arrive (storeplugin.h's
/// `service_answer`) on the virtual clock: at once by default, in the order of the calls;
/// as a schedule says otherwise (`:latency`, `storesh explore --schedules`).
@Suite("Service answers on the virtual clock")
@MainActor
struct ServiceAnswerTests {
    /// Delivers every due answer, as settling does.
    private func deliverAll(_ clock: VirtualClock) {
        while clock.deliverDueAnswer() {}
    }

    /// A clock a shell settles (`ShellCore` sets it): answers wait for `deliverAll`.
    private func settledClock() -> VirtualClock {
        let clock = VirtualClock()
        clock.answersWaitForSettling = true
        return clock
    }

    @Test func answersComeAtOnceInTheOrderOfTheCallsAndNeverInsideTheCall() {
        let clock = settledClock()
        var arrived: [String] = []
        _ = clock.answer(from: "fetch") { arrived.append("first") }
        _ = clock.answer(from: "other") { arrived.append("second") }
        #expect(arrived.isEmpty, "not inside the call: the store settles first")
        #expect(clock.hasDueAnswer)
        #expect(clock.pendingCount == 2, "each waits, so settling takes the effects for quiet")
        deliverAll(clock)
        #expect(arrived == ["first", "second"])
        #expect(clock.pendingCount == 0)
        #expect(clock.schedule.taken.answers.map(\.latency) == [.now, .now])
    }

    @Test func aQueueOfLatenciesIsTakenInOrderAndItsLastRepeats() {
        let clock = settledClock()
        clock.schedule.set([.after(milliseconds: 100), .now], for: "fetch")
        var arrived: [String] = []
        _ = clock.answer(from: "fetch") { arrived.append("a") }
        _ = clock.answer(from: "fetch") { arrived.append("b") }
        _ = clock.answer(from: "fetch") { arrived.append("c") }
        deliverAll(clock)
        #expect(arrived == ["b", "c"], "the first waits 100 ms; the rest come at once")
        clock.advance(by: 99_000_000)
        #expect(arrived == ["b", "c"])
        clock.advance(by: 1_000_000)
        #expect(arrived == ["b", "c", "a"], "a stale answer after newer ones")
        #expect(clock.schedule.taken.answers.map(\.latency) == [.after(milliseconds: 100), .now, .now])
    }

    @Test func anAnswerHeldForTheNextActionArrivesAfterItAndNotAfterTheActionThatCalled() {
        let clock = settledClock()
        clock.schedule.set([.nextAction, .now], for: "download")
        var arrived: [String] = []
        clock.actionSent()  // the action that calls
        _ = clock.answer(from: "download") { arrived.append("held") }
        deliverAll(clock)
        #expect(arrived.isEmpty)
        clock.actionSent()  // the next one (a cancel)
        _ = clock.answer(from: "download") { arrived.append("its own") }
        deliverAll(clock)
        #expect(arrived == ["held", "its own"], "due together: in the order of the calls")
    }

    @Test func anAnswerThatNeverComesWaitsUntilCancelledAndACancelledAnswerNeverArrives() {
        let clock = settledClock()
        clock.schedule.set([.never, .after(milliseconds: 5), .now], for: "fetch")
        var arrived: [String] = []
        let never = clock.answer(from: "fetch") { arrived.append("never") }
        let late = clock.answer(from: "fetch") { arrived.append("late") }
        let due = clock.answer(from: "fetch") { arrived.append("due") }
        #expect(clock.pendingCount == 3)
        clock.cancel(late)
        clock.cancel(due)
        clock.actionSent()
        clock.advance(by: 1_000_000_000)
        deliverAll(clock)
        #expect(arrived.isEmpty)
        #expect(clock.pendingCount == 1, "the one that never comes still waits")
        clock.cancel(never)
        #expect(clock.pendingCount == 0)
    }

    /// A host in a test or a tool drives the clock without a shell: an answer due at once
    /// arrives on a later turn of the main queue, in call order, never inside the call.
    @Test func aClockNobodySettlesDeliversDueAnswersOnTheMainQueue() async {
        let clock = VirtualClock()
        var arrived: [String] = []
        _ = clock.answer(from: "fetch") { arrived.append("first") }
        _ = clock.answer(from: "fetch") { arrived.append("second") }
        #expect(arrived.isEmpty)
        for _ in 0..<100 where arrived.count < 2 {
            await withCheckedContinuation { continuation in DispatchQueue.main.async { continuation.resume() } }
        }
        #expect(arrived == ["first", "second"])
    }

    @Test func aScheduleThatDrawsIsAskedOnlyForServicesWithoutAQueueAndRecordsWhatItGave() {
        let schedule = EffectSchedule()
        schedule.set([.nextAction], for: "queued")
        var asked: [String] = []
        schedule.draw = { service in
            asked.append(service)
            return .never
        }
        #expect(schedule.latency(for: "queued") == .nextAction)
        #expect(schedule.latency(for: "drawn") == .never)
        #expect(asked == ["drawn"])
        let again = EffectSchedule(replaying: schedule.taken)
        #expect(again.latency(for: "queued") == .nextAction)
        #expect(again.latency(for: "drawn") == .never, "made again as it was taken")
    }

    @Test func timersDueTogetherFireInTheOrderTheSchedulePicksAndItIsRecorded() {
        let clock = VirtualClock()
        var fired: [String] = []
        for name in ["a", "b", "c"] { _ = clock.wake(at: 10) { fired.append(name) } }
        _ = clock.wake(at: 5) { fired.append("early") }
        clock.advance(by: 20)
        #expect(fired == ["early", "a", "b", "c"], "by default, in the order scheduled")
        #expect(clock.schedule.taken.ties == [0, 0], "three due together: two picks")

        let shuffled = VirtualClock()
        shuffled.schedule = EffectSchedule(queues: [:], ties: [2, 1])
        fired = []
        for name in ["a", "b", "c"] { _ = shuffled.wake(at: 10) { fired.append(name) } }
        shuffled.advance(by: 20)
        #expect(fired == ["c", "b", "a"], "the third first, then the second of the two left")
        let again = VirtualClock()
        again.schedule = EffectSchedule(replaying: shuffled.schedule.taken)
        fired = []
        for name in ["a", "b", "c"] { _ = again.wake(at: 10) { fired.append(name) } }
        again.advance(by: 20)
        #expect(fired == ["c", "b", "a"], "made again from what was taken")
    }

    @Test func latencyWordsReadAndWriteTheSameWay() {
        let milliseconds: (String) -> Int64? = { text in
            text.hasSuffix("ms") ? Int64(text.dropLast(2)) : Int64(text).map { $0 * 1000 }
        }
        for latency in [AnswerLatency.now, .nextAction, .never, .after(milliseconds: 250)] {
            #expect(AnswerLatency(word: latency.word, milliseconds: milliseconds) == latency)
        }
        #expect(AnswerLatency(word: "0ms", milliseconds: milliseconds) == .now)
        #expect(AnswerLatency(word: "soon", milliseconds: milliseconds) == nil)
        #expect(AnswerLatency(word: "\(AnswerLatency.longest + 1)ms", milliseconds: milliseconds) == nil)
    }
}
