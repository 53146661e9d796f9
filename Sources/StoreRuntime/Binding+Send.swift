#if canImport(Darwin)
    public import SwiftUI
#else
    public import SwiftUIOnLinux
#endif

extension Binding {
    /// A binding whose writes are sent to `send` as `tag(newValue)`: a store's (or an
    /// address's) send function turned into a binding (upstream ObservableStore's form).
    public init<Action>(
        get: @escaping @MainActor () -> Value,
        send: @escaping @MainActor (Action) -> Void,
        tag: @escaping @MainActor (Value) -> Action
    ) {
        self.init(get: get, set: { send(tag($0)) })
    }
}
