import Foundation
import MCPLines

extension FuzzTarget {
    /// Bytes as one line a client sends `storesh mcp`, judged as the gate judges it before
    /// and after `initialize`, with a params check for `tools/call`. Never traps; an error
    /// answer is one JSON-RPC 2.0 error object with a code the gate uses and an id that is
    /// null, a string or an integer; a request is passed on only once initialized (or is
    /// `initialize` or `ping`), as the bytes it came as; a batch's items, each as the client
    /// wrote it (one per item JSON reads), are judged the same, and judging is repeatable.
    static func mcpLine(_ data: Data) {
        let line = data.prefix(16 * 1024)
        for initialized in [false, true] {
            judge(line, initialized: initialized, inBatch: false)
        }
    }

    private static let checks: [String: IncomingMessage.ParameterCheck] = [
        "tools/call": { line in
            struct Call: Decodable {
                struct Params: Decodable { let name: String }
                let params: Params
            }
            return (try? JSONDecoder().decode(Call.self, from: line)) == nil ? "a call needs a tool's name" : nil
        }
    ]

    private static func judge(_ line: Data, initialized: Bool, inBatch: Bool) {
        let message = IncomingMessage.classify(line, initialized: initialized, checks: checks)
        guard IncomingMessage.classify(line, initialized: initialized, checks: checks) == message else {
            violated("the same line judged twice gave two answers")
        }
        switch message {
        case .answer(let answer):
            checkErrorAnswer(answer)
        case .request(_, let method, let passed):
            guard initialized || method == "initialize" || method == "ping" else {
                violated("'\(method)' was passed on before initialize")
            }
            guard passed == line else { violated("a request was passed on changed") }
        case .notification(_, let passed):
            guard passed == line else { violated("a notification was passed on changed") }
        case .batch(let items):
            guard !items.isEmpty else { violated("an empty batch was passed on") }
            let read = (try? JSONSerialization.jsonObject(with: line, options: [.fragmentsAllowed]) as? [Any]) ?? []
            guard items.count == read.count else {
                violated("a batch of \(read.count) items was passed on as \(items.count)")
            }
            guard !inBatch else { return }
            for item in items { judge(item, initialized: initialized, inBatch: true) }
        case .ignored:
            break
        }
    }

    private static func checkErrorAnswer(_ answer: Data) {
        let shown = String(decoding: answer, as: UTF8.self)
        guard let read = try? JSONDecoder().decode(ErrorAnswer.self, from: answer), read.jsonrpc == "2.0",
            [-32700, -32600, -32602].contains(read.error.code)
        else {
            violated("an error answer is not a JSON-RPC error with a null, string or integer id: \(shown)")
        }
    }

    /// A JSON-RPC error answer, as a client reads it.
    private struct ErrorAnswer: Decodable {
        struct Body: Decodable {
            let code: Int
            let message: String
        }
        /// Null, a string or an integer; nothing else reads.
        struct ID: Decodable {
            init(from decoder: any Decoder) throws {
                let single = try decoder.singleValueContainer()
                if single.decodeNil() || (try? single.decode(String.self)) != nil { return }
                _ = try single.decode(Int.self)
            }
        }
        let jsonrpc: String
        let id: ID
        let error: Body
    }
}
