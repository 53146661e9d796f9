/// A read/write view of one value: SwiftUI's `Binding` (`wrappedValue` get and
/// nonmutating set, `$binding`, `binding.part` for a part, `.constant`), so code written
/// against it ports unchanged. The store libraries make bindings whose writes become
/// actions (`store.binding(get:tag:)`).
///
/// Main-actor isolated, as the stores it reads are; `@preconcurrency`, so code in Swift 5
/// mode uses it as it used SwiftUI's, without isolation diagnostics, and code in Swift 6
/// mode outside the main actor is warned, not refused (docs/decisions/0007).
@preconcurrency @MainActor
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
