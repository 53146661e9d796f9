import Dispatch
import StoreHost

/// Time in the shell: `:advance`, `:wait`, and the settling that makes runs on a virtual
/// clock repeatable.
///
/// Effects run on other threads and report back through the main queue, so after every
/// step the shell *settles*: it lets the main queue run until every effect in flight is
/// waiting on the host clock (or none is left). Only then does it move time, one timer at
/// a time, settling after each — so effects due at the same instant always fire, and
/// report, in the order they were scheduled. Answers of service calls that are due
/// (`service_answer`) arrive the same way: one at a time, each once the store has settled,
/// in the order the calls were made.
extension ShellCore {
    /// Effects in flight in every model (each model's session keeps running).
    var allEffectsInFlight: Int {
        effects.total
    }

    /// Returns once effects are quiet: none in flight, or (on a virtual clock) none of
    /// their work able to go on without the host — which each plugin says exactly
    /// (`effects_idle`); for a plugin that cannot, each effect waiting on a timer is taken
    /// for quiet. Gives up after `limit` seconds of time the effects had to run (an effect
    /// waiting on something the host clock does not control): see `EffectTimeBudget`.
    package func settle(limit: Double? = nil) async {
        let virtual = host.clock as? VirtualClock
        var budget = EffectTimeBudget(seconds: limit ?? settleLimit)
        var quietTurns = 0
        var idleOnce = false
        while budget.remains() {
            await Self.mainQueueTurn()
            Heartbeat.beat()
            let inFlight = allEffectsInFlight
            // Exact where every model can say (a Swift plugin); the guess below where not.
            // Work the in-process world holds for the main queue is the models' too.
            if host.worldWorkPending {
                quietTurns = 0
                continue
            }
            if virtual != nil, inFlight > 0, let idle = effectsIdle() {
                // Idle twice, with a main-queue turn between (here and, request after
                // request, in a worker): work queued for a main queue that nobody counts —
                // a hop to the main actor, a block of the model's own — has run by the
                // second answer, and what it started is counted there.
                if idle, idleOnce {
                    guard virtual?.deliverDueAnswer() == true else { return }
                    (idleOnce, quietTurns) = (false, 0)
                    continue
                }
                idleOnce = idle
                if idle { continue }
                quietTurns = 0
                try? await Task.sleep(for: .microseconds(100))
                continue
            }
            let quiet = inFlight == 0 || (virtual.map { $0.pendingCount >= inFlight } ?? false)
            if quiet {
                quietTurns += 1
                if quietTurns >= 3 {
                    guard virtual?.deliverDueAnswer() == true else { return }
                    quietTurns = 0
                }
            } else {
                quietTurns = 0
                try? await Task.sleep(for: .microseconds(100))
            }
        }
    }

    /// Runners that settle after every input (transcripts, explore) call this first: the
    /// answers due at once (`service_answer`) then arrive only as they settle, one per
    /// settle, in call order, so the same inputs give the same events. Elsewhere (the
    /// prompt, scripts, MCP) the clock delivers them on the main queue as they fall due.
    package func settlesAfterEveryInput() {
        (host.clock as? VirtualClock)?.answersWaitForSettling = true
    }

    /// Service answers already due arrive now, each once the store has settled: after
    /// every line at the prompt (a C plugin's answer is due when its action returns), and
    /// after each run of action lines a script sends as one batch.
    package func deliverDueAnswers() async {
        guard let virtual = host.clock as? VirtualClock, virtual.hasDueAnswer else { return }
        await settle()
    }

    /// Whether every model with effects in flight says its effect work cannot go on
    /// without the host (true), that some can (false), or nil when one cannot say.
    private func effectsIdle() -> Bool? {
        var idle = true
        for session in sessionsWithEffects {
            switch session.effectsIdle() {
            case true?: continue
            case false?: idle = false
            case nil: return nil
            }
        }
        return idle
    }

    /// Returns after the main queue has run everything queued before the call.
    static func mainQueueTurn() async {
        await withCheckedContinuation { continuation in
            DispatchQueue.main.async { continuation.resume() }
        }
    }

    func advance(_ args: [String], origin: LineOrigin) async -> Bool {
        guard host.clock is VirtualClock else { return fail(Self.realClock, origin: origin) }
        guard let text = args.first, args.count == 1, let milliseconds = Duration.milliseconds(text) else {
            return fail(
                "usage: :advance DURATION (seconds, like 5, or 500ms, 2s, 1m; at most 365 days)", origin: origin)
        }
        return await advance(milliseconds: milliseconds, origin: origin)
    }

    private static let realClock = "the clock is real; start storesh with --virtual-clock to move time by hand"

    /// `:advance`: moves the virtual clock `milliseconds` on, firing what falls due on the
    /// way in order and letting each settle; a breakpoint hit stops it there.
    package func advance(milliseconds: Int64, origin: LineOrigin) async -> Bool {
        guard let virtual = host.clock as? VirtualClock else { return fail(Self.realClock, origin: origin) }
        // A caller with values (MCP, the inspector) is held to what the word's reader takes.
        guard (0...Duration.maxMilliseconds).contains(milliseconds) else {
            return fail("usage: :advance DURATION (at most 365 days)", origin: origin)
        }
        let (target, overflow) = virtual.now.addingReportingOverflow(milliseconds * 1_000_000)
        guard !overflow else {
            return fail("the virtual clock cannot go that far (it counts nanoseconds in 64 bits)", origin: origin)
        }
        await settle()
        while let next = virtual.nextDeadline, next <= target {
            if takeInterrupt() {
                return fail(
                    "interrupted before the clock reached the end (effects due up to here have run)", origin: origin)
            }
            virtual.fireNext()
            await settle()
            if debugging.breakHit != nil { return true }  // a breakpoint stops the clock here
        }
        virtual.advance(by: target - virtual.now)
        return true
    }

    private func interruptedWait(_ origin: LineOrigin) -> Bool {
        fail(
            "interrupted; \(effectsInFlight) effect\(effectsInFlight == 1 ? "" : "s") still in flight (:fx lists them)",
            origin: origin)
    }

    func wait(_ args: [String], origin: LineOrigin) async -> Bool {
        guard args.count <= 1 else {
            return fail("usage: :wait [TIMEOUT] (seconds, like 5, or 500ms, 2s, 1m; at most 365 days)", origin: origin)
        }
        guard let text = args.first else { return await wait(timeoutMilliseconds: 10_000, origin: origin) }
        guard let timeout = Duration.milliseconds(text) else {
            return fail(
                "'\(text)' is not a duration; write seconds (5) or 500ms, 2s, 1m (at most 365 days)", origin: origin)
        }
        return await wait(timeoutMilliseconds: timeout, origin: origin)
    }

    /// `:wait`: until the current model's effects settle, at most `timeout` milliseconds
    /// (under a virtual clock, advancing it to each next wake-up within them).
    package func wait(timeoutMilliseconds timeout: Int64, origin: LineOrigin) async -> Bool {
        guard (0...Duration.maxMilliseconds).contains(timeout) else {
            return fail("usage: :wait [TIMEOUT] (at most 365 days)", origin: origin)
        }
        let start = host.clock.now
        if let virtual = host.clock as? VirtualClock {
            await settle()
            while effectsInFlight > 0, let next = virtual.nextDeadline, next - start <= timeout * 1_000_000 {
                if takeInterrupt() { return interruptedWait(origin) }
                virtual.fireNext()
                await settle()
                if debugging.breakHit != nil { return true }
            }
        } else {
            while effectsInFlight > 0, host.clock.now - start < timeout * 1_000_000 {
                if takeInterrupt() { return interruptedWait(origin) }
                if debugging.breakHit != nil { return true }
                try? await Task.sleep(for: .milliseconds(1))
            }
        }
        guard effectsInFlight == 0 else {
            return fail(
                "\(effectsInFlight) effect\(effectsInFlight == 1 ? "" : "s") still in flight after \(timeout)ms",
                origin: origin)
        }
        return true
    }
}

/// The real time effects get to settle, counted so that time they had no chance to use is
/// not spent: a turn of settling's loop that took longer than `stallCharge` was a stall —
/// the main queue held by someone else (a long synchronous call, another session or test
/// in the same process) or the process not scheduled — in which the effects, whose work
/// runs on or reports through the main queue, stood still too. Such a turn costs
/// `stallCharge`, not its length. (Charged in full, a stall of seconds used up the whole
/// limit, and an effect due to finish on the next turn was reported as never finishing:
/// the flaky `:advance` under load, docs/pitfalls.md.) Stalls cannot stretch it without
/// end: at `ceilingFactor` times the limit of real time (at least a minute), it is spent.
struct EffectTimeBudget {
    /// What one stalled turn costs.
    static let stallCharge: UInt64 = 5_000_000
    /// How many times the limit of real time may pass, stalls and all; never less than
    /// `ceilingFloor` (ten times a short limit, as explore's or a test's, passed in the
    /// stalls of a loaded test run, and an effect due at once was taken for stuck).
    static let ceilingFactor: UInt64 = 10
    static let ceilingFloor: UInt64 = 60_000_000_000
    private let limit: UInt64
    private let ceiling: UInt64
    private let started: UInt64
    private var spent: UInt64 = 0
    private var last: UInt64

    /// A budget of `seconds` (saturating: not a number, or too long to count, is no limit).
    init(seconds: Double, now: UInt64 = DispatchTime.now().uptimeNanoseconds) {
        limit = DispatchTime.uptimeNanoseconds(afterSeconds: seconds, from: now) - now
        let (ceiling, overflow) = limit.multipliedReportingOverflow(by: Self.ceilingFactor)
        self.ceiling = overflow ? .max : max(ceiling, Self.ceilingFloor)
        started = now
        last = now
    }

    /// Charges the time since the last call (at most `stallCharge`), and says whether any
    /// of the budget is left.
    mutating func remains(now: UInt64 = DispatchTime.now().uptimeNanoseconds) -> Bool {
        spent += min(now &- last, Self.stallCharge)
        last = now
        return spent < limit && now &- started < ceiling
    }
}

extension DispatchTime {
    /// The uptime, in nanoseconds, `seconds` from now. Saturating: a wait too long to
    /// count in nanoseconds, or not a number, is `UInt64.max` (no deadline); one of 0 or
    /// less is now. (`UInt64(seconds * 1e9)` trapped on `--timeout 1e300`.)
    static func uptimeNanoseconds(afterSeconds seconds: Double) -> UInt64 {
        uptimeNanoseconds(afterSeconds: seconds, from: DispatchTime.now().uptimeNanoseconds)
    }

    /// The uptime `seconds` after `now`, saturating as above.
    static func uptimeNanoseconds(afterSeconds seconds: Double, from now: UInt64) -> UInt64 {
        if seconds.isNaN { return .max }
        guard seconds > 0 else { return now }
        guard let wait = UInt64(exactly: (seconds * 1e9).rounded(.down)), wait <= UInt64.max - now else { return .max }
        return now + wait
    }
}

extension Duration {
    /// The longest duration `:wait` and `:advance` take: 365 days, so that nanoseconds on
    /// the clock stay far from Int64's limit.
    static let maxMilliseconds: Int64 = 365 * 24 * 3_600_000

    /// "500ms", "2s", "1.5s", "1m", and a bare number of seconds ("5", as `--timeout 5`
    /// takes) → milliseconds; nil for anything else, negative, not finite, or longer than
    /// `maxMilliseconds`.
    package static func milliseconds(_ text: String) -> Int64? {
        let units: [(suffix: String, scale: Double)] = [("ms", 1), ("s", 1000), ("m", 60_000)]
        let unit = units.first { text.hasSuffix($0.suffix) } ?? ("", 1000)
        guard let number = Double(text.dropLast(unit.suffix.count)), number >= 0, number.isFinite else { return nil }
        let milliseconds = (number * unit.scale).rounded()
        guard milliseconds <= Double(maxMilliseconds) else { return nil }
        return Int64(exactly: milliseconds)
    }
}
