/// A store scoped to part of another: it reads its state and sends its actions through a
/// `ScopeSource` (usually a parent store and the child's `get` and `tag`). Both store
/// flavours call it `ViewStore`.
@MainActor
public struct ScopedStore<State, Action> {
    @usableFromInline let source: any ScopeSource<State, Action>

    /// A scoped store that reads its state with `get` and sends its actions with `send`.
    public init(
        get: @escaping @MainActor () -> State,
        send: @escaping @MainActor (Action) -> Void
    ) {
        source = ClosureScope(get: get, send: send)
    }

    /// A scoped store reading and sending through `source`.
    @inlinable
    public init(source: any ScopeSource<State, Action>) {
        self.source = source
    }

    /// The current state, read through the source each time.
    @inlinable
    public var state: State { source.state }

    @inlinable
    public func send(_ action: Action) {
        source.send(action)
    }
}

/// Where a scoped store reads its state and sends its actions. A class on the main actor
/// rather than two closures: a call of an isolated closure checks the executor it runs
/// on (a third of a view store's send), a call of an isolated method does not.
@MainActor
public protocol ScopeSource<State, Action>: AnyObject {
    associatedtype State
    associatedtype Action

    var state: State { get }
    func send(_ action: Action)
}

/// A scope source made of two closures.
@MainActor
final class ClosureScope<State, Action>: ScopeSource {
    private let read: @MainActor () -> State
    private let sendAction: @MainActor (Action) -> Void

    init(get: @escaping @MainActor () -> State, send: @escaping @MainActor (Action) -> Void) {
        self.read = get
        self.sendAction = send
    }

    var state: State { read() }
    func send(_ action: Action) { sendAction(action) }
}
