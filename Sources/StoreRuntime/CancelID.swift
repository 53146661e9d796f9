/// The id an effect may be cancelled by: any Hashable and Sendable value, type-erased.
///
/// Ids are compared by type and value, so `1` and `"1"` are different ids.
public struct CancelID: Hashable, @unchecked Sendable, CustomStringConvertible {
    // AnyHashable is not Sendable in general; every value stored here came in as Sendable.
    private let base: AnyHashable

    /// The id `id`, type-erased.
    public init<ID: Hashable & Sendable>(_ id: ID) {
        base = AnyHashable(id)
    }

    /// The id as written, for logs and `:effects`.
    public var description: String { "\(base.base)" }
}
