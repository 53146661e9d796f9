/// Turns any `Encodable` into a `Value`: keyed containers become records (fields in
/// encoding order), unkeyed ones arrays, single values scalars, a nil optional `null`.
/// It is the change tracker's encoding with nothing to compare against, so a snapshot
/// and a whole encoding can never disagree.
public struct ValueEncoder {
    /// An encoder (it holds no options).
    public init() {}

    /// The value tree of `value`; throws `Value.TooDeep` past `Value.maxDepth`.
    public func encode<T: Encodable>(_ value: T) throws -> Value {
        try TrackedNode.encode(value, against: nil, codingPath: []).value
    }
}
