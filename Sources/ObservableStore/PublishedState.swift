/// A store's current state, and the subject behind `$state` once someone subscribes.
///
/// Unlike `@Published`, it costs nothing until someone subscribes: the subject is
/// created on first use. New values are published after they are set.
@usableFromInline
final class StateCell<Value> {
    @exclusivity(unchecked) @usableFromInline var value: Value
    @exclusivity(unchecked) @usableFromInline var subject: CurrentValueSubject<Value, Never>?

    @usableFromInline init(_ value: Value) {
        self.value = value
    }

    @inlinable
    func set(_ newValue: Value) {
        value = newValue
        subject?.send(newValue)
    }

    func publisher() -> AnyPublisher<Value, Never> {
        if let subject { return subject.eraseToAnyPublisher() }
        let created = CurrentValueSubject<Value, Never>(value)
        subject = created
        return created.eraseToAnyPublisher()
    }
}

/// The read-only face of a store's state: `state` reads it, `$state` publishes it (the
/// current value on subscription, then every change).
@propertyWrapper
public struct PublishedState<Value> {
    @usableFromInline let cell: StateCell<Value>

    @usableFromInline init(cell: StateCell<Value>) {
        self.cell = cell
    }

    /// The current value.
    @inlinable
    public var wrappedValue: Value { cell.value }

    /// Publishes each new value (`store.$state`), starting with the current one.
    public var projectedValue: AnyPublisher<Value, Never> { cell.publisher() }
}
