import Dispatch

/// The clock plugins wait on (`clock_now`, `clock_wake` in storeplugin.h). Real time at
/// the prompt; virtual under tests, where the host decides when time passes.
@MainActor
package protocol ShellClock: AnyObject {
    /// Nanoseconds from an arbitrary origin.
    var now: Int64 { get }
    /// Calls `fire` on the main thread once the clock reaches `deadline`; returns a
    /// timer id, never 0.
    func wake(at deadline: Int64, _ fire: @escaping @MainActor () -> Void) -> UInt64
    /// Cancels a timer that has not fired.
    func cancel(_ timer: UInt64)
    /// True when time moves only when the host moves it (after effects settle).
    var isVirtual: Bool { get }
    /// True when, besides, every clock, entropy source, delay and task the model's process
    /// has is the host's (a worker's deterministic world, docs/decisions/0002): a task
    /// that is suspended then waits on the host.
    var controlsTheWorld: Bool { get }
    /// Calls `deliver` on the main thread when the answer of a call to `service` arrives
    /// (storeplugin.h's `service_answer`); returns an id `cancel` takes. When is the
    /// clock's choice: at once unless a schedule says otherwise (`VirtualClock.schedule`).
    func answer(from service: String, _ deliver: @escaping @MainActor () -> Void) -> UInt64
    /// Told after each action the shell sends on its own: answers held until the next
    /// action become due.
    func actionSent()
}

extension ShellClock {
    package var controlsTheWorld: Bool { false }
    /// At once: on the next turn of the main queue.
    package func answer(from service: String, _ deliver: @escaping @MainActor () -> Void) -> UInt64 {
        wake(at: now, deliver)
    }
    package func actionSent() {}
}

/// Wall-clock time: timers fire from the main dispatch queue.
@MainActor
package final class RealClock: ShellClock {
    package var isVirtual: Bool { false }
    private var lastTimer: UInt64 = 0
    private var pending: [UInt64: DispatchWorkItem] = [:]

    package init() {}

    package var now: Int64 { Int64(DispatchTime.now().uptimeNanoseconds) }

    package func wake(at deadline: Int64, _ fire: @escaping @MainActor () -> Void) -> UInt64 {
        lastTimer += 1
        let timer = lastTimer
        let item = DispatchWorkItem { [weak self] in
            MainActor.assumeIsolated {
                self?.pending[timer] = nil
                fire()
            }
        }
        pending[timer] = item
        // Any deadline a plugin passes is taken: one in the past fires on the next turn,
        // one more than 70 years away never does.
        let now = self.now
        let delay = deadline > now ? UInt64(deadline) - UInt64(now) : 0
        let fireAt: DispatchTime = delay >= 1 << 61 ? .distantFuture : .now() + .nanoseconds(Int(delay))
        DispatchQueue.main.asyncAfter(deadline: fireAt, execute: item)
        return timer
    }

    package func cancel(_ timer: UInt64) {
        pending.removeValue(forKey: timer)?.cancel()
    }
}

/// Time that stands still until told to move: `advance(by:)` fires every timer that
/// falls due, in deadline order, and timers due at the same instant in the order they
/// were scheduled (unless `schedule` picks another: `:ties`, `explore --schedules`).
/// Makes timed effects reproducible.
@MainActor
package final class VirtualClock: ShellClock {
    package var isVirtual: Bool { true }
    private struct Timer {
        let id: UInt64
        let deadline: Int64
        let fire: @MainActor () -> Void
    }

    /// When answers of service calls arrive (`:latency`, `storesh explore --schedules`).
    package var schedule = EffectSchedule()
    /// Answers that have arrived and wait for the store to settle, delivered in the order
    /// the calls were made.
    private var dueAnswers: [Timer] = []
    /// Answers held until the next action (`untilAction`) or until cancelled.
    private var heldAnswers: [(timer: Timer, untilAction: Bool)] = []
    /// Whether a runner settles the effects on this clock after every input, delivering
    /// due answers one per settle (transcripts and explore set it, through
    /// `ShellCore.settlesAfterEveryInput`). Otherwise (the prompt, scripts, MCP, a host in
    /// a test) an answer that falls due is delivered on a later turn of the main queue.
    package var answersWaitForSettling = false
    /// A turn of the main queue is set to deliver due answers.
    private var deliveryQueued = false

    package private(set) var now: Int64 = 0 {
        didSet { if now != oldValue { onMove?(now) } }
    }
    /// Told each time `now` moves (the in-process world reads time from here).
    package var onMove: ((Int64) -> Void)?
    private var lastTimer: UInt64 = 0
    private var timers: [Timer] = []

    package init() {}

    package func wake(at deadline: Int64, _ fire: @escaping @MainActor () -> Void) -> UInt64 {
        lastTimer += 1
        timers.append(Timer(id: lastTimer, deadline: deadline, fire: fire))
        return lastTimer
    }

    package func cancel(_ timer: UInt64) {
        timers.removeAll { $0.id == timer }
        dueAnswers.removeAll { $0.id == timer }
        heldAnswers.removeAll { $0.timer.id == timer }
    }

    /// An answer of `service` arrives as `schedule` says: due at once (delivered when
    /// effects settle, `deliverDueAnswer`), after a wait on this clock, after the next
    /// action, or never unless cancelled.
    package func answer(from service: String, _ deliver: @escaping @MainActor () -> Void) -> UInt64 {
        lastTimer += 1
        let latency = schedule.latency(for: service)
        switch latency {
        case .now:
            dueAnswers.append(Timer(id: lastTimer, deadline: now, fire: deliver))
            deliverLaterUnlessSettled()
        case .after(let milliseconds):
            // At most a year (`AnswerLatency.longest`): no overflow in nanoseconds.
            let (deadline, overflow) = now.addingReportingOverflow(min(milliseconds, AnswerLatency.longest) * 1_000_000)
            timers.append(Timer(id: lastTimer, deadline: overflow ? .max : deadline, fire: deliver))
        case .nextAction, .never:
            heldAnswers.append((Timer(id: lastTimer, deadline: .max, fire: deliver), latency == .nextAction))
        }
        return lastTimer
    }

    /// Answers held until the next action are due now.
    package func actionSent() {
        guard heldAnswers.contains(where: \.untilAction) else { return }
        dueAnswers += heldAnswers.filter(\.untilAction).map(\.timer)
        dueAnswers.sort { $0.id < $1.id }
        heldAnswers.removeAll(where: \.untilAction)
        deliverLaterUnlessSettled()
    }

    /// With no shell settling this clock, a turn of the main queue delivers the answers
    /// that are due, one per turn, in call order.
    private func deliverLaterUnlessSettled() {
        guard !answersWaitForSettling, !deliveryQueued else { return }
        deliveryQueued = true
        DispatchQueue.main.async { [weak self] in
            MainActor.assumeIsolated {
                guard let self else { return }
                self.deliveryQueued = false
                guard !self.answersWaitForSettling, self.deliverDueAnswer() else { return }
                if self.hasDueAnswer { self.deliverLaterUnlessSettled() }
            }
        }
    }

    /// Delivers the due answer of the earliest call; false when none is due.
    @discardableResult
    package func deliverDueAnswer() -> Bool {
        guard !dueAnswers.isEmpty else { return false }
        dueAnswers.removeFirst().fire()
        return true
    }

    /// Whether an answer is due (it arrives when effects settle).
    package var hasDueAnswer: Bool { !dueAnswers.isEmpty }

    /// Forgets every timer and answer waiting (they never fire; cancelling one is a no-op):
    /// for a store its owner abandons while it lives on.
    package func dropPending() {
        timers = []
        dueAnswers = []
        heldAnswers = []
    }

    /// The deadline of the next timer, if any.
    package var nextDeadline: Int64? { timers.map(\.deadline).min() }

    /// How many timers and answers are waiting.
    package var pendingCount: Int { timers.count + dueAnswers.count + heldAnswers.count }

    /// Moves time to the earliest timer and fires that one timer alone (ties: the one
    /// `schedule` picks, by default the one scheduled first). Returns false when no timer
    /// is waiting.
    @discardableResult
    package func fireNext() -> Bool {
        guard let next = dueTimer(by: .max) else { return false }
        now = max(now, next.deadline)
        next.fire()
        return true
    }

    /// Moves time forward by `nanoseconds`, firing due timers one at a time (a timer a
    /// fired timer schedules fires too, if it falls due within the span).
    package func advance(by nanoseconds: Int64) {
        let (sum, overflow) = now.addingReportingOverflow(max(0, nanoseconds))
        let target = overflow ? Int64.max : sum
        while let next = dueTimer(by: target) {
            now = max(now, next.deadline)
            next.fire()
        }
        now = target
    }

    /// The timer to fire next by `target`: the earliest deadline; among timers due at the
    /// same instant, the one `schedule` picks (by default the first scheduled).
    private func dueTimer(by target: Int64) -> Timer? {
        guard let earliest = timers.lazy.map(\.deadline).filter({ $0 <= target }).min() else { return nil }
        let tied = timers.indices.filter { timers[$0].deadline == earliest }.sorted { timers[$0].id < timers[$1].id }
        let pick = tied.count > 1 ? schedule.pick(amongTied: tied.count) : 0
        return timers.remove(at: tied[pick])
    }
}
