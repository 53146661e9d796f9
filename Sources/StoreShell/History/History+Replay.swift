import StoreHost
import StoreValue

/// Why a replay of a history stopped: the message, and the action (0-based) it stopped at.
struct ReplayStop: Error {
    let message: String
    let index: Int
    /// How many actions from `index` it may have been (a worker lost in a chunk).
    var count = 1
}

extension History {
    /// Replays actions `start..<target` into `live` (updates only), in chunks that end where
    /// snapshots are kept — one request per chunk for a model in a worker, with bigger
    /// chunks there (a round trip costs more) — updating each entry's "changed" and
    /// remembering snapshots. `stepByStep`: one action per chunk, so `afterChunk` sees every
    /// state. `afterChunk` is told the position each chunk reached; it stops the replay by
    /// throwing (a breakpoint, Ctrl-C). Nothing else is asked of the shell: `:why`,
    /// `:bisect`, a reload and `:replay-check` replay the same way.
    func replay(
        into live: Session, from start: Int, to target: Int, stepByStep: Bool = false,
        afterChunk: (_ reached: Int) throws(ReplayStop) -> Void = { _ in }
    ) throws(ReplayStop) {
        let chunk = stepByStep ? 1 : live.callsAreRoundTrips ? max(interval, 1024 / interval * interval) : interval
        var index = start
        while index < target {
            let end = min(target, (index / chunk + 1) * chunk)
            var batch: [(String, [Value])] = []
            var positions: [Int] = []
            for position in index..<end where !entries[position].skipped {
                let entry = entries[position]
                batch.append((live.model.actions[Int(entry.action)].name, entry.arguments))
                positions.append(position)
            }
            let outcome: (changed: [Bool], error: SessionError?)
            do {
                outcome = try live.replayBatch(batch)
            } catch {
                throw ReplayStop(
                    message: error.message, index: positions.first ?? index, count: max(1, positions.count))
            }
            for (position, changed) in zip(positions, outcome.changed) where changed != entries[position].changed {
                setChanged(changed, at: position)
            }
            if let error = outcome.error {
                throw ReplayStop(message: error.message, index: positions[outcome.changed.count])
            }
            if end % interval == 0 { rememberState(of: live, at: end) }
            index = end
            try afterChunk(end)
        }
    }
}

/// One action to replay, bound to its model, and what to say when it is refused.
struct ReplayItem {
    let action: ActionDescriptor
    let arguments: [Value]
}

extension Session {
    /// Replays `items` (their updates only) into this session in batches that end where a
    /// history at `position`, with a snapshot every `interval` actions, keeps one: one
    /// request per batch for a model in a worker — resuming a journal or importing a log
    /// action by action cost a round trip each, 25–35 times the time in process — and a
    /// read of the state only where a snapshot is kept. `taken` is called for each action
    /// replayed, in order, once its batch came back; `endsBatch` says the session's state
    /// is the one after it. Returns the index of the first action the model refused and
    /// why; throws when the model's worker was lost on the way.
    func replayInBatches(
        _ items: [ReplayItem], position: Int, interval: Int,
        taken: (_ index: Int, _ changed: Bool, _ endsBatch: Bool) -> Void
    ) throws(SessionError) -> (index: Int, error: SessionError)? {
        var start = 0
        var position = position
        while start < items.count {
            let end = min(items.count, start + interval - position % interval)
            let outcome = try replayBatch(items[start..<end].map { ($0.action.name, $0.arguments) })
            for (offset, changed) in outcome.changed.enumerated() {
                taken(start + offset, changed, offset == end - start - 1)
            }
            if let error = outcome.error { return (start + outcome.changed.count, error) }
            position += end - start
            start = end
        }
        return nil
    }
}
