// Two small wrappers both sides of the ABI use (the host and the SDK): the one place each
// is declared.

/// Carries a value (a C pointer, or a tuple of them) into a main-actor closure: the ABI
/// calls plugins, and plugins call back, on the main thread (storeplugin.h, "Threads").
package struct Unchecked<Value>: @unchecked Sendable {
    package let value: Value
    package init(_ value: Value) { self.value = value }
}

/// A weak reference, for tables that must not keep their entries alive.
package struct Weak<Object: AnyObject> {
    package weak var value: Object?
    package init(_ value: Object) { self.value = value }
}
