@_exported public import StoreRuntime

// A model file needs only `import ObservableStore`: the Combine vocabulary (AnyPublisher,
// Just, Future, Empty, sink, AnyCancellable, ObservableObject, Published) comes with it —
// from Combine on Apple platforms, and elsewhere from this package's `CombineOnLinux`
// (OpenCombine), which upstream code's `import Combine` names under `-module-alias`.
#if canImport(Darwin)
    @_exported public import Combine
#else
    @_exported public import CombineOnLinux
#endif

/// An effect: a publisher of actions that never fails. Errors are turned into actions.
public typealias Fx<Action> = AnyPublisher<Action, Never>
