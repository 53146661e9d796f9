/// The effects of one update: async closures run off the main actor, each returning one
/// action that is sent back to the store.
///
/// An effect may carry a cancellation id, so a later update can cancel it (`cancel(id:)`)
/// or a newer one can replace it (`cancelInFlight`).
public struct Fx<Action: Sendable>: Sendable {
    /// One unit of asynchronous work whose result is the next action.
    public typealias Effect = @Sendable () async -> Action

    @usableFromInline
    package struct Item: Sendable, EffectRequest {
        let run: Effect
        @usableFromInline package var cancelID: CancelID?
        @usableFromInline package var cancelInFlight: Bool
    }

    @usableFromInline var items: [Item]
    @usableFromInline var cancellations: [CancelID]

    @inlinable
    init(items: [Item], cancellations: [CancelID]) {
        self.items = items
        self.cancellations = cancellations
    }

    /// No effects.
    @inlinable
    public static var none: Fx { Fx(items: [], cancellations: []) }

    /// One effect.
    public init(_ effect: @escaping Effect) {
        self.init(items: [Item(run: effect, cancelID: nil, cancelInFlight: false)], cancellations: [])
    }

    /// Several effects, run concurrently.
    public init(_ effects: [Effect]) {
        self.init(items: effects.map { Item(run: $0, cancelID: nil, cancelInFlight: false) }, cancellations: [])
    }

    /// The effects' closures, in order.
    public var effects: [Effect] { items.map(\.run) }

    /// True when there is nothing to run or cancel.
    @inlinable
    public var isEmpty: Bool { items.isEmpty && cancellations.isEmpty }

    /// These effects followed by `other`'s.
    public func merge(_ other: Fx) -> Fx {
        Fx(items: items + other.items, cancellations: cancellations + other.cancellations)
    }

    /// The same effects with each resulting action wrapped by `tag` (a child's effects
    /// seen from its parent). Cancellation ids are kept.
    public func tag<Outer: Sendable>(_ tag: @escaping @Sendable (Action) -> Outer) -> Fx<Outer> {
        Fx<Outer>(
            items: items.map { item in
                let run = item.run
                return .init(run: { tag(await run()) }, cancelID: item.cancelID, cancelInFlight: item.cancelInFlight)
            },
            cancellations: cancellations
        )
    }

    /// The same effects tagged with `id`, so `Fx.cancel(id:)` can stop them. With
    /// `cancelInFlight`, effects already running under `id` are cancelled first.
    public func cancellable<ID: Hashable & Sendable>(id: ID, cancelInFlight: Bool = false) -> Fx {
        var copy = self
        for index in copy.items.indices {
            copy.items[index].cancelID = CancelID(id)
            copy.items[index].cancelInFlight = cancelInFlight
        }
        return copy
    }

    /// An effect that cancels every running effect tagged with `id`. A cancelled effect's
    /// task is cancelled and its action, if it still produces one, is dropped.
    public static func cancel<ID: Hashable & Sendable>(id: ID) -> Fx {
        Fx(items: [], cancellations: [CancelID(id)])
    }
}
