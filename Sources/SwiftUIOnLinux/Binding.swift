/// A read/write view of one value whose writes are turned into store actions.
///
/// It has the shape of `SwiftUI.Binding` (`wrappedValue` get and nonmutating set), so
/// view code written against it ports unchanged; on Linux there is no SwiftUI to use.
@MainActor
@propertyWrapper
@dynamicMemberLookup
public struct Binding<Value> {
    private let getValue: @MainActor () -> Value
    private let setValue: @MainActor (Value) -> Void

    /// Creates a binding from a getter and a setter.
    public init(get: @escaping @MainActor () -> Value, set: @escaping @MainActor (Value) -> Void) {
        self.getValue = get
        self.setValue = set
    }

    /// A binding whose writes are sent to `send` as `tag(newValue)`: a store's (or an
    /// address's) send function turned into a binding.
    public init<Action>(
        get: @escaping @MainActor () -> Value,
        send: @escaping @MainActor (Action) -> Void,
        tag: @escaping @MainActor (Value) -> Action
    ) {
        self.init(get: get, set: { send(tag($0)) })
    }

    /// A binding that always reads `value` and ignores writes (previews and tests).
    public static func constant(_ value: Value) -> Binding<Value> {
        Binding(get: { value }, set: { _ in })
    }

    /// The value: read through the getter, written through the setter (an action).
    public var wrappedValue: Value {
        get { getValue() }
        nonmutating set { setValue(newValue) }
    }

    /// The binding itself (`$binding`), to pass on.
    public var projectedValue: Binding<Value> { self }

    /// A binding to a writable part of the value; writes go through this binding.
    public subscript<Part>(dynamicMember keyPath: WritableKeyPath<Value, Part>) -> Binding<Part> {
        let parent = self
        return Binding<Part>(
            get: { parent.getValue()[keyPath: keyPath] },
            set: { part in
                var whole = parent.getValue()
                whole[keyPath: keyPath] = part
                parent.setValue(whole)
            }
        )
    }
}
