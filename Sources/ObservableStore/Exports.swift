// A model file needs only `import ObservableStore`: the Combine vocabulary (AnyPublisher,
// Just, Future, Empty, sink, AnyCancellable, ObservableObject, Published) comes with it —
// from Combine on Apple platforms, and elsewhere from this package's `Combine` target
// (OpenCombine under Combine's name), so upstream code's `import Combine` works too.
@_exported public import Combine
@_exported public import StoreRuntime

/// An effect: a publisher of actions that never fails. Errors are turned into actions.
public typealias Fx<Action> = AnyPublisher<Action, Never>
