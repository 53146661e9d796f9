import Testing

@testable import StorePlugin

/// A lookup that answers with a string: the first service people write.
@PluginService
func bookTitle(isbn: String) -> String { "Title of \(isbn)" }

/// `@PluginService` refused `String` results ("a service returns Int, Int64, Double,
/// Bool or nothing"), though storeplugin.h and `:stub` support them.
@Suite("@PluginService: a String result")
struct StringServiceTests {
    @Test func aServiceReturnsAStringThatLastsUntilItsNextCall() {
        #expect(bookTitleService.declaration.signature == "s>s")
        typealias Lookup = @convention(c) (UnsafePointer<CChar>?) -> UnsafePointer<CChar>?
        let lookup = unsafeBitCast(bookTitleService.declaration.implementation, to: Lookup.self)
        let first = "9780".withCString { lookup($0) }
        #expect(first.map { String(cString: $0) } == "Title of 9780", "valid after the call returned, until the next")
        let second = "12".withCString { lookup($0) }
        #expect(second.map { String(cString: $0) } == "Title of 12")
        let other = ServiceValues.returned("kept", by: "another")
        let third = "3".withCString { lookup($0) }
        #expect(other.map { String(cString: $0) } == "kept", "each service keeps its own last answer")
        #expect(third.map { String(cString: $0) } == "Title of 3")
    }
}
