/// The effects one update asks its store to run, and the effects it asks it to cancel.
///
/// `Update.fx` is this list seen as a single publisher; keeping the list lets each effect
/// carry a cancellation id (as `cancellable(id:)` in The Composable Architecture), which a
/// single merged publisher could not.
public struct Effects<Action> {
    /// One publisher to start, with the id a later update may cancel it by.
    public struct Item {
        /// The effect: every value it publishes is sent to the store as an action.
        public var publisher: Fx<Action>
        /// The id a later update cancels it by (`cancelFx(id:)`), if any.
        public var cancelID: CancelID?
        /// Cancel effects already running with the same id before starting this one.
        public var cancelInFlight: Bool

        /// One effect, optionally cancellable by `cancelID`.
        @inlinable
        public init(publisher: Fx<Action>, cancelID: CancelID? = nil, cancelInFlight: Bool = false) {
            self.publisher = publisher
            self.cancelID = cancelID
            self.cancelInFlight = cancelInFlight
        }
    }

    /// Publishers to start, in order.
    @inlinable
    public var items: [Item] {
        get { storedItems ?? [] }
        set { storedItems = newValue.isEmpty ? nil : newValue }
    }
    /// Ids of running effects to cancel; applied before `items` start.
    @inlinable
    public var cancellations: [CancelID] {
        get { storedCancellations ?? [] }
        set { storedCancellations = newValue.isEmpty ? nil : newValue }
    }

    /// nil when empty: an update with no effects (most are) holds no array, so making,
    /// copying and dropping one costs no reference counting.
    @usableFromInline var storedItems: [Item]?
    @usableFromInline var storedCancellations: [CancelID]?

    /// Effects to start and ids of running effects to cancel.
    @inlinable
    public init(items: [Item] = [], cancellations: [CancelID] = []) {
        self.storedItems = items.isEmpty ? nil : items
        self.storedCancellations = cancellations.isEmpty ? nil : cancellations
    }

    /// Nothing to run or cancel.
    @inlinable
    public init() {
        self.storedItems = nil
        self.storedCancellations = nil
    }

    @inlinable
    init(storedItems: [Item]?, storedCancellations: [CancelID]?) {
        self.storedItems = storedItems
        self.storedCancellations = storedCancellations
    }

    /// One effect with no id.
    @inlinable
    public init(_ fx: Fx<Action>) {
        self.init(items: [Item(publisher: fx)])
    }

    /// Nothing to run or cancel.
    @inlinable
    public static var none: Effects { Effects() }

    /// True when the store has nothing to run or cancel.
    @inlinable
    public var isEmpty: Bool { storedItems == nil && storedCancellations == nil }

    /// All publishers merged into one (cancellation ids are lost).
    public var merged: Fx<Action> {
        switch items.count {
        case 0: return Empty().eraseToAnyPublisher()
        case 1: return items[0].publisher
        default:
            // OpenCombine has no Merge: flatten a sequence of publishers instead.
            return Publishers.Sequence<[Fx<Action>], Never>(sequence: items.map(\.publisher))
                .flatMap { $0 }
                .eraseToAnyPublisher()
        }
    }

    /// Appends another update's effects after these.
    public mutating func append(_ other: Effects) {
        items.append(contentsOf: other.items)
        cancellations.append(contentsOf: other.cancellations)
    }

    /// The same effects producing `transform(action)`; ids are kept. No effects (the
    /// common case for a child's update) costs nothing: inlined into the caller, which
    /// then never builds a publisher or touches generic metadata.
    @inlinable
    public func map<Other>(_ transform: @escaping (Action) -> Other) -> Effects<Other> {
        if storedItems == nil { return Effects<Other>(storedItems: nil, storedCancellations: storedCancellations) }
        return mapped(transform)
    }

    @usableFromInline
    func mapped<Other>(_ transform: @escaping (Action) -> Other) -> Effects<Other> {
        Effects<Other>(
            items: items.map {
                .init(
                    publisher: $0.publisher.map(transform).eraseToAnyPublisher(),
                    cancelID: $0.cancelID, cancelInFlight: $0.cancelInFlight)
            },
            cancellations: cancellations
        )
    }
}

extension Effects.Item: EffectRequest {}
