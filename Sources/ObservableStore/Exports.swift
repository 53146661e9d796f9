// A model file needs only `import ObservableStore`: the Combine vocabulary (AnyPublisher,
// Just, Future, Empty, sink, AnyCancellable, ObservableObject, Published) comes with it —
// from Combine on Apple platforms, from OpenCombine elsewhere.
#if canImport(Combine)
@_exported public import Combine
#else
@_exported public import OpenCombine
#endif
@_exported public import StoreRuntime

/// An effect: a publisher of actions that never fails. Errors are turned into actions.
public typealias Fx<Action> = AnyPublisher<Action, Never>
