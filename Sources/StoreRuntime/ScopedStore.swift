/// A store scoped to part of another: it reads its state through a closure and sends its
/// actions through another. Both store flavours call it `ViewStore`.
@MainActor
public struct ScopedStore<State, Action> {
    @usableFromInline let getState: @MainActor () -> State
    @usableFromInline let sendAction: @MainActor (Action) -> Void

    @inlinable
    public init(
        get: @escaping @MainActor () -> State,
        send: @escaping @MainActor (Action) -> Void
    ) {
        self.getState = get
        self.sendAction = send
    }

    /// The current state, read through the closure each time.
    @inlinable
    public var state: State { getState() }

    @inlinable
    public func send(_ action: Action) {
        sendAction(action)
    }
}
