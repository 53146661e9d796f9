/// A mistake in action or path text, with the byte offset where it was found.
public struct TextError: Error, Equatable, CustomStringConvertible {
    /// What is wrong, in a sentence fit for the user: "expected ',' or ']' in the list
    /// opened at column 9".
    public let message: String
    /// The byte offset in the text where the mistake was found.
    public let offset: Int

    /// A mistake described by `message`, found at byte `offset`.
    public init(_ message: String, at offset: Int) {
        self.message = message
        self.offset = offset
    }

    /// The message.
    public var description: String { message }
}
