/// What happened to one effect a store runs; for tools that watch effects live.
///
/// Ids are per store, start at 1 and count up in the order effects start, so the same
/// actions in the same order give the same ids.
public enum EffectEvent: Hashable, Sendable, CustomStringConvertible {
    /// The effect was subscribed to (started). `cancelID` is the id it may be cancelled by.
    case started(effect: UInt64, cancelID: String?)
    /// The effect produced an action, which the store is about to send.
    case emitted(effect: UInt64, action: String)
    /// The effect completed normally.
    case finished(effect: UInt64)
    /// The effect was cancelled: by an update, by `cancelInFlight`, or by store release.
    case cancelled(effect: UInt64)

    /// The id of the effect this event is about.
    public var effect: UInt64 {
        switch self {
        case .started(let id, _), .emitted(let id, _), .finished(let id), .cancelled(let id): id
        }
    }

    /// One line for people: `#3 started (cancel id "search")`, `#3 emitted found(...)`.
    public var description: String {
        switch self {
        case .started(let id, let cancelID?): "#\(id) started (cancel id \"\(cancelID)\")"
        case .started(let id, nil): "#\(id) started"
        case .emitted(let id, let action): "#\(id) emitted \(action)"
        case .finished(let id): "#\(id) finished"
        case .cancelled(let id): "#\(id) cancelled"
        }
    }
}
