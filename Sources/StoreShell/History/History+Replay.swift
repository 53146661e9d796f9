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
    /// `:bisect`, a reload and `--replay-check` replay the same way.
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
