import Arboreal
import Dispatch
import ObservableStore

/// Each workload does `n` units of work and returns a checksum, so the optimiser cannot
/// drop the loop and the caller can check that the work really happened.
public enum Workloads {
    /// How many effects are started before waiting for them: bounded work in flight, as
    /// in a real app, rather than half a million pending effects at once.
    public static let effectBatch = 1_000

    /// Hides the action from the optimiser, so no loop is folded into a constant; both the
    /// raw loop and the store loop pay for it.
    @_optimize(none)
    public static func opaque<Action>(_ action: Action) -> Action { action }

    /// The update function alone, state threaded by hand: the floor for `Store.send`.
    @inlinable
    public static func rawUpdateLoop(_ n: Int) -> Int {
        var state = TrivialCounter()
        for _ in 0..<n {
            let next = TrivialCounter.update(state: state, action: opaque(.increment), environment: ())
            if next.state != state { state = next.state }
        }
        return state.count
    }

    /// `Store.send` of an action with no effects.
    @MainActor
    public static func storeSend(_ n: Int) -> Int {
        let store = ObservableStore.Store(state: TrivialCounter(), environment: ())
        for _ in 0..<n {
            store.send(opaque(.increment))
        }
        return store.state.count
    }

    /// The raw loop for the effect round trip: ping's update then pong's, no effects run.
    @inlinable
    public static func rawPingPongLoop(_ n: Int) -> Int {
        var state = TrivialCounter()
        for _ in 0..<n {
            state = TrivialCounter.update(state: state, action: opaque(.ping), environment: ()).state
            state = TrivialCounter.update(state: state, action: opaque(.pong), environment: ()).state
        }
        return state.count
    }

    /// `n` pings, each starting one immediate effect whose pong comes back into the store;
    /// returns when every pong has been applied.
    @MainActor
    public static func storeEffectRoundTrip(_ n: Int) async -> Int {
        let store = ObservableStore.Store(state: TrivialCounter(), environment: ())
        await inBatches(
            n, send: { store.send(opaque(.ping)) }, settled: { store.state.count == $0 && store.effectsInFlight == 0 })
        return store.state.count
    }

    /// Arboreal's update called directly on the model.
    @MainActor
    public static func rawArborealLoop(_ n: Int) -> Int {
        let model = TrivialArborealCounter()
        for _ in 0..<n {
            _ = model.update(action: opaque(.increment), environment: ())
        }
        return model.count
    }

    /// Arboreal `Store.send` of an action with no effects.
    @MainActor
    public static func arborealSend(_ n: Int) -> Int {
        let store = Arboreal.Store(state: TrivialArborealCounter(), environment: ())
        for _ in 0..<n {
            store.send(opaque(.increment))
        }
        return store.state.count
    }

    /// Arboreal: `n` pings, each an async-closure effect answering pong.
    @MainActor
    public static func arborealEffectRoundTrip(_ n: Int) async -> Int {
        let store = Arboreal.Store(state: TrivialArborealCounter(), environment: ())
        await inBatches(
            n, send: { store.send(opaque(.ping)) }, settled: { store.state.count == $0 && store.effectsInFlight == 0 })
        return store.state.count
    }

    /// Calls `send` `n` times in batches of `effectBatch`, after each batch letting the main
    /// queue run until `settled(sentSoFar)` holds.
    @MainActor
    static func inBatches(_ n: Int, send: @MainActor () -> Void, settled: @MainActor (Int) -> Bool) async {
        for start in stride(from: 0, to: n, by: effectBatch) {
            let end = min(start + effectBatch, n)
            for _ in start..<end {
                send()
            }
            await waitUntil { settled(end) }
        }
    }

    /// Lets the main queue run until `done` holds, checking after every main-queue turn.
    @MainActor
    static func waitUntil(_ done: @MainActor () -> Bool) async {
        while !done() {
            await withCheckedContinuation { continuation in
                DispatchQueue.main.async { continuation.resume() }
            }
        }
    }
}

extension Workloads {
    /// A child action sent to the root store, through `update(get:set:tag:)`.
    @MainActor
    public static func childSend(_ n: Int) -> Int {
        let store = ObservableStore.Store(state: CounterParent(), environment: ())
        for _ in 0..<n {
            store.send(opaque(.child(.increment)))
        }
        return store.state.child.count
    }

    /// The child action sent through a `ViewStore` handed to a function that cannot see
    /// where it came from (as a view would get it): the send goes through the view store's
    /// source by dynamic dispatch.
    @MainActor
    public static func viewStoreSendElsewhere(_ n: Int) -> Int {
        let store = ObservableStore.Store(state: CounterParent(), environment: ())
        sendIncrements(n, to: store.viewStore(get: \.child, tag: CounterParent.Action.child))
        return store.state.child.count
    }

    @MainActor
    @inline(never)
    static func sendIncrements(_ n: Int, to child: ObservableStore.ViewStore<TrivialCounter>) {
        for _ in 0..<n {
            child.send(opaque(.increment))
        }
    }

    /// The same child action sent through a `ViewStore` of the child.
    @MainActor
    public static func viewStoreSend(_ n: Int) -> Int {
        let store = ObservableStore.Store(state: CounterParent(), environment: ())
        let child = store.viewStore(get: \.child, tag: CounterParent.Action.child)
        for _ in 0..<n {
            child.send(opaque(.increment))
        }
        return store.state.child.count
    }
}
