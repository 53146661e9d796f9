/// What a store keeps to stop an effect: a Combine subscriber, a task.
public protocol EffectHandle {
    /// Stops the effect; what it produces after this is dropped.
    func cancel()
}

extension Task: EffectHandle {}

/// One effect an update asks its store to start, as the effect rule sees it: the id a
/// later update may cancel it by, and whether it replaces the effects in flight under
/// that id.
@usableFromInline
package protocol EffectRequest {
    /// The id a later update may cancel the effect by, if any.
    var cancelID: CancelID? { get }
    /// Cancel the effects in flight under the same id before starting this one.
    var cancelInFlight: Bool { get }
}

/// A store whose effects `InFlightEffects.run` starts. How an effect runs is all the two
/// flavours do differently: a publisher subscribed to, an async closure in a task.
@MainActor
@usableFromInline
package protocol EffectStarting: AnyObject {
    /// What the store's updates ask it to start.
    associatedtype Effect: EffectRequest

    /// Starts `effect` as effect number `id` (what it produces comes back under that
    /// number) and returns what stops it.
    func start(_ effect: Effect, id: UInt64) -> any EffectHandle
}

/// The effects a store has in flight: a handle to cancel each, and its cancellation id;
/// and the one rule by which both store flavours run an update's effects:
///
/// 1. the effects in flight under each id the update cancels are cancelled, in order;
/// 2. then those in flight under the id of each new effect that cancels in flight;
/// 3. then the new effects start, in order, numbered 1, 2, 3… per store.
///
/// What an effect produces counts only while it is in flight: an action from an effect
/// cancelled after it produced it is dropped. Starts, actions, finishes and cancellations
/// are reported to `onEvent` (the store's `onEffectEvent`).
///
/// Main-actor only, like the stores that own it (their deinit is isolated too), so it
/// needs no lock. Not generic: a store runs its effects in unspecialized generic code,
/// where a generic dictionary would look up its type metadata on every insert and remove.
@MainActor
public final class InFlightEffects {
    private struct Entry {
        let handle: any EffectHandle
        let cancelID: CancelID?
    }

    @exclusivity(unchecked) private var entries: [UInt64: Entry] = [:]
    @exclusivity(unchecked) private var lastID: UInt64 = 0
    /// Hears every effect event: the store's `onEffectEvent`.
    @exclusivity(unchecked) @usableFromInline package var onEvent: (@MainActor (EffectEvent) -> Void)?

    /// No effects in flight.
    public init() {}

    /// The number of effects in flight.
    public var count: Int { entries.count }

    /// Reserves the next effect id (1, 2, 3, … per store).
    public func nextID() -> UInt64 {
        lastID += 1
        return lastID
    }

    /// Records a started effect.
    public func insert(_ id: UInt64, handle: any EffectHandle, cancelID: CancelID?) {
        entries[id] = Entry(handle: handle, cancelID: cancelID)
    }

    /// True while effect `id` is in flight (started, not finished or cancelled).
    public func contains(_ id: UInt64) -> Bool {
        entries[id] != nil
    }

    /// Forgets a finished effect. Returns false if it was not in flight.
    @discardableResult
    public func remove(_ id: UInt64) -> Bool {
        entries.removeValue(forKey: id) != nil
    }

    /// Removes every effect started with `cancelID` and returns them, oldest first.
    public func remove(cancelID: CancelID) -> [(id: UInt64, handle: any EffectHandle)] {
        let matching = entries.filter { $0.value.cancelID == cancelID }.keys.sorted()
        return matching.map { id in (id, entries.removeValue(forKey: id)!.handle) }
    }

    /// Removes every effect and returns them, oldest first.
    public func removeAll() -> [(id: UInt64, handle: any EffectHandle)] {
        let all = entries.sorted { $0.key < $1.key }.map { ($0.key, $0.value.handle) }
        entries.removeAll()
        return all
    }

    // MARK: The rule

    /// Runs one update's effects: cancels the effects in flight under each id of
    /// `cancellations`, then those under the id of each of `effects` that cancels in
    /// flight, then starts `effects` in order with `store`. Inlinable, so a store's
    /// specialized `send` runs it without looking up generic type metadata per effect.
    @inlinable
    package func run<Store: EffectStarting>(
        cancelling cancellations: [CancelID], starting effects: [Store.Effect], with store: Store
    ) {
        for id in cancellations {
            cancel(id: id)
        }
        for effect in effects where effect.cancelInFlight {
            if let id = effect.cancelID { cancel(id: id) }
        }
        for effect in effects {
            let id = nextID()
            onEvent?(.started(effect: id, cancelID: effect.cancelID.map { "\($0)" }))
            insert(id, handle: store.start(effect, id: id), cancelID: effect.cancelID)
        }
    }

    /// Cancels every effect in flight under `id`, oldest first, reporting each.
    @usableFromInline
    package func cancel(id: CancelID) {
        for (effect, handle) in remove(cancelID: id) {
            handle.cancel()
            onEvent?(.cancelled(effect: effect))
        }
    }

    /// Cancels every effect in flight, oldest first: reporting each when what they would
    /// send belongs to a state that is gone (a restore, a jump in time), silently when
    /// their store is being released.
    package func cancelAll(reporting: Bool) {
        for (effect, handle) in removeAll() {
            handle.cancel()
            if reporting { onEvent?(.cancelled(effect: effect)) }
        }
    }

    /// Effect `effect`, which may go on, produced `action`: true, reported, when the
    /// store is to send it; false when the effect is no longer in flight.
    @inlinable
    package func emits<Action>(_ action: Action, from effect: UInt64) -> Bool {
        guard contains(effect) else { return false }
        reportEmitted(action, from: effect)
        return true
    }

    /// Effect `effect` ended: forgets it and reports it finished, if it was in flight.
    @usableFromInline
    package func finish(_ effect: UInt64) {
        if remove(effect) {
            reportFinished(effect)
        }
    }

    /// Reports that effect `effect` produced `action`, which its store is about to send;
    /// the action is described only when someone listens.
    @inlinable
    package func reportEmitted<Action>(_ action: Action, from effect: UInt64) {
        onEvent?(.emitted(effect: effect, action: "\(action)"))
    }

    /// Reports that effect `effect` finished.
    package func reportFinished(_ effect: UInt64) {
        onEvent?(.finished(effect: effect))
    }
}
