import StoreHost
import StoreValue

/// Scripts whose action results nobody sees (`--quiet`, no journal) send their actions in
/// batches: to a model in a worker, one request per batch instead of one per action; in
/// process, one call without the per-line work of `execute`. The outcome is the same as
/// line by line: the same history, the same errors at the same FILE:LINE, the same stop
/// with `--bail`.
extension ShellCore {
    /// Whether `executeActions` may batch now: nothing is shown per action and nothing is
    /// journaled ahead of it.
    public var batchesActions: Bool {
        !reportActions && !watchesStateWhenQuiet && journal == nil && current != nil
    }

    /// Runs action lines (no `:commands`) in order as `execute` would; returns how many
    /// failed, and stops after the first failure when `stopAtFailure`, or when Ctrl-C is
    /// pressed (checked between batches).
    public func executeActions(_ lines: [(text: String, origin: LineOrigin)], stopAtFailure: Bool) -> (failures: Int, stopped: Bool) {
        var failures = 0
        var pending: [(action: ActionDescriptor, arguments: [Value], line: Int)] = []
        /// Sends what is pending; false when the run should stop.
        func flush() -> Bool {
            guard let session = current else { return true }
            while !pending.isEmpty {
                if takeInterrupt() {
                    fail("interrupted (Ctrl-C): the script stops before this line", origin: lines[pending[0].line].origin)
                    failures += 1
                    return false
                }
                let outcome: (changed: [Bool], error: SessionError?)
                do {
                    outcome = try session.sendBatch(pending.map { ($0.action, $0.arguments) })
                } catch {
                    // The worker died somewhere in the batch: start it again, then go
                    // through the batch one action at a time to find the culprit.
                    recoverLostWorkers(announce: false)
                    let rest = pending
                    pending = []
                    for item in rest {
                        if !sendSingle(lines[item.line]) {
                            failures += 1
                            if stopAtFailure { return false }
                        }
                    }
                    return true
                }
                for (index, changed) in outcome.changed.enumerated() {
                    let item = pending[index]
                    let last = index == outcome.changed.count - 1
                    if let note = record(item.action, item.arguments, source: .script, changed: changed, in: session, snapshot: last) { output(note) }
                }
                pending.removeFirst(outcome.changed.count)
                if let error = outcome.error, let refused = pending.first {
                    pending.removeFirst()
                    fail(error.message, origin: lines[refused.line].origin, text: lines[refused.line].text)
                    failures += 1
                    if stopAtFailure { return false }
                }
            }
            return true
        }
        var model: Session?
        var modelHistory: History?
        for (index, line) in lines.enumerated() {
            guard let session = current else { break }
            if model !== session {
                model = session
                modelHistory = history(of: session)
            }
            let history = modelHistory
            do {
                let bound = try ActionBinding.bind(ActionCall.parse(line.text), to: session.model)
                pending.append((bound.0, bound.1, index))
                // Batches end where the history keeps a snapshot (the state is read only
                // between batches), and hold at most 4096 actions.
                let position = (history?.position ?? 0) + pending.count
                if pending.count >= 4096 || (pending.count >= 1024 && position % (history?.interval ?? 64) == 0), !flush() { return (failures, true) }
            } catch {
                guard flush() else { return (failures, true) }
                fail(error.message, origin: line.origin, text: line.text, offset: error.offset)
                failures += 1
                if stopAtFailure { return (failures, true) }
            }
        }
        return (failures, !flush())
    }

    /// One action line the usual way (the batch it was in took the worker down).
    private func sendSingle(_ line: (text: String, origin: LineOrigin)) -> Bool {
        defer { recoverLostWorkers() }
        return sendLine(line.text, origin: line.origin)
    }
}
