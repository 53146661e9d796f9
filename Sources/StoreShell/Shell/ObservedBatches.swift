import StoreHost
import StoreValue

/// Scripts whose results are shown (`--format json`, the tree output) send a model in a
/// worker its actions in batches too: the worker applies them one by one and answers
/// each as it answers a single action — its result, the state after it, and what it
/// caused (effect events, effect actions, log lines) — so the shell shows exactly what
/// line-by-line sending shows, for one round trip per batch instead of per action.
///
/// A batch is cut short after an action that starts effects: their events could come
/// before the next action's, so from there lines go one at a time until no effect is in
/// flight. A model in this process gains nothing from a batch; its lines go one by one.
@MainActor
struct ObservedRun {
    typealias Item = (action: ActionDescriptor, arguments: [Value], line: Int)

    let core: ShellCore
    let lines: [(text: String, origin: LineOrigin)]
    let stopAtFailure: Bool
    var failures = 0
    /// How many actions the next batch may hold: grows while answers stay small, so a
    /// big state sent whole after every action does not pile up in memory.
    var batchLimit = 16
    static let maxBatch = 256
    static let maxAnswerBytes = 4 << 20

    init(core: ShellCore, lines: [(text: String, origin: LineOrigin)], stopAtFailure: Bool) {
        self.core = core
        self.lines = lines
        self.stopAtFailure = stopAtFailure
    }

    mutating func execute() -> (failures: Int, stopped: Bool) {
        var index = 0
        while index < lines.count {
            if core.takeInterrupt() {
                core.fail("interrupted (Ctrl-C): the script stops before this line", origin: lines[index].origin)
                return (failures + 1, true)
            }
            let items = gather(from: index)
            guard let session = core.current, !items.isEmpty else {
                // One line on its own: no model in a worker, effects in flight, or a line
                // that does not parse (sending it reports why, as for any line).
                let line = lines[index]
                index += 1
                if !core.sendLine(line.text, origin: line.origin) {
                    failures += 1
                    if stopAtFailure { return (failures, true) }
                }
                continue
            }
            guard let taken = run(items, in: session) else { return (failures, true) }
            index = taken < items.count ? items[taken].line : items[items.count - 1].line + 1
        }
        return (failures, false)
    }

    /// The lines from `start` that can go in one batch: none when the current model is in
    /// this process or has effects in flight, else up to the first line that does not bind.
    private func gather(from start: Int) -> [Item] {
        guard let session = core.current, session.runsInWorker, core.allEffectsInFlight == 0 else { return [] }
        var limit = batchLimit
        if !core.observesActions, let history = core.history(of: session) {
            // The state is not sent back, so a history snapshot is read after the batch:
            // end it where the history keeps one.
            let interval = history.interval
            limit = min(limit, interval - history.position % interval)
        }
        var items: [Item] = []
        var index = start
        while index < lines.count, items.count < limit {
            guard let bound = try? ActionBinding.bind(ActionCall.parse(lines[index].text), to: session.model) else { break }
            items.append((bound.0, bound.1, index))
            index += 1
        }
        return items
    }

    /// Sends `items` as one batch and shows each result in order. Returns how many were
    /// processed (the rest go again), nil when the run stops.
    private mutating func run(_ items: [Item], in session: Session) -> Int? {
        let observe = core.observesActions
        var results: Session.ObservedResults
        do throws(SessionError) {
            guard let batch = try session.startObserved(items.map { ($0.action, $0.arguments) }, stopAtFailure: stopAtFailure, observe: observe) else {
                throw SessionError(message: "\(session.model.qualifiedName) is not in a worker")
            }
            results = try session.observedResults(batch)
        } catch {
            return recover(after: error, items[...])
        }
        core.takingBatch = true
        defer {
            core.takingBatch = false
            core.trimIfDue(session)
        }
        var taken = 0
        // After a state that could not be read, the shell's copy is behind the model's:
        // no history snapshot is taken from it for the rest of the batch.
        var stateKnown = observe
        while true {
            let outcome: Result<Bool, SessionError>? = core.holdingEffectOutput { () -> Result<Bool, SessionError>? in
                do throws(SessionError) {
                    guard let next = try session.nextObserved(&results) else { return nil }
                    let item = items[taken]
                    let line = lines[item.line]
                    switch next {
                    case .success(let result):
                        if result.stateError != nil { stateKnown = false }
                        return .success(core.reportSent(result, of: (item.action, item.arguments), line: line.text, origin: line.origin, in: session, snapshot: stateKnown))
                    case .failure(let error):
                        core.fail(error.message, origin: line.origin, text: line.text)
                        return .success(false)
                    }
                } catch {
                    return .failure(error)
                }
            }
            switch outcome {
            case nil:
                adaptLimit(answerBytes: results.byteCount, actions: taken)
                if !observe, let history = core.history(of: session), history.wantsSnapshot {
                    history.remember(session.state, at: history.position)
                }
                return taken
            case .failure(let error)?:
                core.takingBatch = false
                return recover(after: error, items[taken...])
            case .success(let ok)?:
                taken += 1
                if !ok {
                    failures += 1
                    if stopAtFailure { return nil }
                }
            }
        }
    }

    /// Batches grow while the answer per action is small.
    private mutating func adaptLimit(answerBytes: Int, actions: Int) {
        guard actions > 0 else { return }
        let fits = Self.maxAnswerBytes / max(1, answerBytes / actions)
        batchLimit = max(1, min(Self.maxBatch, min(batchLimit * 2, fits)))
    }

    /// The worker was lost before these actions were shown: start it again, then send
    /// them one at a time, so the one that kills it is found and reported as any action
    /// would be. Another error is reported at the first line, and the rest go again.
    private mutating func recover(after error: SessionError, _ items: ArraySlice<Item>) -> Int? {
        guard let first = items.first else { return items.endIndex }
        guard error.workerLoss != nil else {
            core.fail(error.message, origin: lines[first.line].origin, text: lines[first.line].text)
            failures += 1
            return stopAtFailure ? nil : items.startIndex + 1
        }
        let run = core.resendOneByOne(items.map { lines[$0.line] }, stopAtFailure: stopAtFailure)
        failures += run.failures
        return run.stopped ? nil : items.endIndex
    }
}
