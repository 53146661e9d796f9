import Foundation
import MCPLines
import Testing

/// A batch's items reach the SDK as the client wrote them, one per item.
@Suite("The items of an MCP batch")
struct BatchItemsTests {
    func items(_ text: String) -> [String] {
        guard case .batch(let items) = IncomingMessage.classify(Data(text.utf8), initialized: true, checks: [:]) else {
            Issue.record("not a batch: \(text)")
            return []
        }
        return items.map { String(decoding: $0, as: UTF8.self) }
    }

    /// Written again from what JSONSerialization read, an item's keys came in another
    /// order from one call to the next, and a number written `1.0` came back `1`.
    @Test func eachItemIsTheClientsOwnBytes() {
        let batch =
            #"[ {"jsonrpc":"2.0","id":1.0,"method":"ping","params":{"a":[1,{"b":"],\"x"}]}} ,"#
            + #"{"method":"notifications/initialized","jsonrpc":"2.0"}, 7 ]"#
        #expect(
            items(batch) == [
                #"{"jsonrpc":"2.0","id":1.0,"method":"ping","params":{"a":[1,{"b":"],\"x"}]}}"#,
                #"{"method":"notifications/initialized","jsonrpc":"2.0"}"#, "7",
            ])
        #expect(items(batch) == items(batch), "the same every time")
    }

    /// Foundation's reader takes a trailing comma; it is no item.
    @Test func aTrailingCommaIsNoItem() {
        #expect(items(#"[{"jsonrpc":"2.0","method":"a"}, ]"#) == [#"{"jsonrpc":"2.0","method":"a"}"#])
    }
}
