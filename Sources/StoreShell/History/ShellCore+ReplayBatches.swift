import StoreHost
import StoreValue

extension ShellCore {
    /// One action to replay, bound to its model, and what to say when it is refused.
    struct ReplayItem {
        let action: ActionDescriptor
        let arguments: [Value]
    }

    /// Replays `items` (their updates only) into `session` in batches that end where a
    /// history at `position`, with a snapshot every `interval` actions, keeps one: one
    /// request per batch for a model in a worker — resuming a journal or importing a log
    /// action by action cost a round trip each, 25–35 times the time in process — and a
    /// read of the state only where a snapshot is kept. `taken` is called for each action
    /// replayed, in order, once its batch came back; `endsBatch` says the session's state
    /// is the one after it. Returns the index of the first action the model refused and
    /// why; throws when the model's worker was lost on the way.
    func replayInBatches(
        _ items: [ReplayItem], into session: Session, position: Int, interval: Int,
        taken: (_ index: Int, _ changed: Bool, _ endsBatch: Bool) -> Void
    ) throws(SessionError) -> (index: Int, error: SessionError)? {
        var start = 0
        var position = position
        while start < items.count {
            let end = min(items.count, start + interval - position % interval)
            let outcome = try session.replayBatch(items[start..<end].map { ($0.action.name, $0.arguments) })
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
