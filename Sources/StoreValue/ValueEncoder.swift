/// Turns any `Encodable` into a `Value`: keyed containers become records (fields in
/// encoding order), unkeyed ones arrays, single values scalars, a nil optional `null`.
/// It gives what the change tracker's encoding gives (a test holds them to it), without
/// keeping anything for a later comparison.
public struct ValueEncoder {
    /// An encoder (it holds no options).
    public init() {}

    /// The value tree of `value`; throws `Value.TooDeep` past `Value.maxDepth`.
    public func encode<T: Encodable>(_ value: T) throws -> Value {
        try PlainEncoding.value(of: value)
    }
}
