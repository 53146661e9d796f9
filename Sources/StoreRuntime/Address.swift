/// Helpers for routing a child's actions to its parent.
public enum Address {
    /// Returns a send function for child actions: each is wrapped by `tag` and passed to
    /// the parent's `send`.
    @MainActor
    @inlinable
    public static func forward<Inner, Outer>(
        send: @escaping @MainActor (Outer) -> Void,
        tag: @escaping (Inner) -> Outer
    ) -> @MainActor (Inner) -> Void {
        { inner in send(tag(inner)) }
    }
}
