#if canImport(Darwin)
    public import SwiftUI
#else
    public import SwiftUIOnLinux
#endif

/// A store scoped to part of another: it reads its state through a closure and sends its
/// actions through another. Both store flavours call it `ViewStore`.
@preconcurrency @MainActor
public struct ScopedStore<State, Action> {
    @usableFromInline let getState: @MainActor () -> State
    @usableFromInline let sendAction: @MainActor (Action) -> Void

    /// A scoped store that reads its state with `get` and sends its actions with `send`.
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

    /// Sends `action` through the closure (to the parent store, tagged).
    @inlinable
    public func send(_ action: Action) {
        sendAction(action)
    }
}

extension ScopedStore: ScopeParent {}

/// Anything a scoped store can read from and send to: both flavours' stores and view
/// stores (`StoreProtocol` and `ArborealStore` refine it).
@preconcurrency @MainActor
public protocol ScopeParent<State, Action> {
    /// What it reads.
    associatedtype State
    /// What it accepts.
    associatedtype Action

    /// The current state.
    var state: State { get }
    /// Applies `action`.
    func send(_ action: Action)
}

extension ScopeParent {
    /// A store for the part of this one's state that `get` reads; its actions reach this
    /// one wrapped by `tag`.
    ///
    /// The closures are made here, in a module that imports no Swift 5 module: isolated
    /// closures made in one that does (ObservableStore re-exports OpenCombine) check on
    /// every call that they run on the main actor, which costs as much as the send itself.
    /// Inlinable, so the caller's specialized `send` runs in them.
    @inlinable
    public func scope<ChildState, ChildAction>(
        get: @escaping (State) -> ChildState,
        tag: @escaping (ChildAction) -> Action
    ) -> ScopedStore<ChildState, ChildAction> {
        ScopedStore(get: { get(self.state) }, send: { self.send(tag($0)) })
    }

    /// A binding to one value of the state whose writes are sent as `tag(newValue)`.
    @inlinable
    public func scopedBinding<Value>(
        get: @escaping (State) -> Value,
        tag: @escaping (Value) -> Action
    ) -> Binding<Value> {
        Binding(get: { get(self.state) }, set: { self.send(tag($0)) })
    }
}
