/// The Swift types that encode as one scalar value, told apart by their metatypes (a
/// pointer comparison each) rather than by dynamic casts: the encoders meet every field
/// of a state here.
enum Scalars {
    /// The scalar `value` encodes as, or nil when it is not one of the scalar types.
    /// `codingPath` is made only for an error: it costs an array per field.
    static func value<T: Encodable>(of value: T, codingPath: @autoclosure () -> [any CodingKey]) throws -> Value? {
        let type = T.self
        if type == String.self { return .string(unsafeBitCast(value, to: String.self)) }
        if type == Int.self { return .int(Int64(unsafeBitCast(value, to: Int.self))) }
        if type == Bool.self { return .bool(unsafeBitCast(value, to: Bool.self)) }
        if type == Double.self { return .double(unsafeBitCast(value, to: Double.self)) }
        if type == Int64.self { return .int(unsafeBitCast(value, to: Int64.self)) }
        if type == Float.self { return .double(Double(unsafeBitCast(value, to: Float.self))) }
        if type == Int32.self { return .int(Int64(unsafeBitCast(value, to: Int32.self))) }
        if type == Int16.self { return .int(Int64(unsafeBitCast(value, to: Int16.self))) }
        if type == Int8.self { return .int(Int64(unsafeBitCast(value, to: Int8.self))) }
        if type == UInt8.self { return .int(Int64(unsafeBitCast(value, to: UInt8.self))) }
        if type == UInt16.self { return .int(Int64(unsafeBitCast(value, to: UInt16.self))) }
        if type == UInt32.self { return .int(Int64(unsafeBitCast(value, to: UInt32.self))) }
        if type == UInt.self { return try exact(unsafeBitCast(value, to: UInt.self), codingPath()) }
        if type == UInt64.self { return try exact(unsafeBitCast(value, to: UInt64.self), codingPath()) }
        return nil
    }

    private static func exact(_ value: some BinaryInteger, _ codingPath: [any CodingKey]) throws -> Value {
        guard let exact = Int64(exactly: value) else {
            throw EncodingError.invalidValue(
                value,
                .init(codingPath: codingPath, debugDescription: "\(value) does not fit in a 64-bit signed integer"))
        }
        return .int(exact)
    }
}
