import Foundation
import MCP
import StoreValue

/// A `tools/call` the stdio transport answers itself, without the SDK's request loop. The
/// SDK reads every request's params and every result through `MCP.Value` (building a
/// regular expression for each string it decodes, to find data URLs): that was most of a
/// call's round trip. Here the call is read once, its arguments straight into value trees,
/// and its answer is encoded once, as the SDK encodes a `tools/call` answer.
///
/// Only the common case is taken: a call the gate already checked (`ParameterChecks`)
/// whose arguments nest no deeper than `ValueBridge.nestingLimit`. Anything else (and a
/// call to a tool that does not exist) is handed on to the SDK, which answers it as
/// before.
struct DirectToolCall: Sendable {
    /// The tool's name.
    let name: String
    /// The arguments as value trees (as `ValueBridge.arguments` makes them).
    let arguments: [String: StoreValue.Value]

    /// The call in `line` (a checked `tools/call` request), or nil for the SDK to answer.
    init?(line: Data) {
        guard let request = try? JSONDecoder().decode(Request.self, from: line) else { return nil }
        name = request.params.name
        arguments = (request.params.arguments ?? [:]).mapValues(\.value)
    }

    /// Answers one call: `answer` writes a result, `handOn` lets the SDK answer instead.
    /// Exactly one of them is called, once.
    struct Reply: Sendable {
        let id: ID
        let line: Data
        let gate: RequestGate

        /// Writes `result` as the answer, in the bytes the SDK would have written.
        func answer(_ result: CallTool.Result) {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            guard let data = try? encoder.encode(Response<CallTool>(id: id, result: result)) else {
                return handOn()
            }
            gate.answer(data)
        }

        /// Lets the SDK read and answer the call.
        func handOn() {
            gate.handOn(line)
        }
    }

    /// What of the request is read; the rest was checked by the gate.
    private struct Request: Decodable {
        struct Params: Decodable {
            let name: String
            let arguments: [String: Argument]?
        }
        let params: Params
    }

    /// A JSON value as a value tree, read in the order `MCP.Value` reads one (a boolean, a
    /// whole number, a number, a string, an array, an object) but leaving strings as sent.
    /// Objects become records with their fields in name order. Deeper than the limit, it
    /// fails to read, and the call goes to the SDK, which refuses it with the limit named.
    private struct Argument: Decodable {
        let value: StoreValue.Value

        init(from decoder: any Decoder) throws {
            // params.arguments.<name> is depth 0.
            guard decoder.codingPath.count - 3 <= ValueBridge.nestingLimit else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "too deep"))
            }
            let container = try decoder.singleValueContainer()
            if container.decodeNil() {
                value = .null
            } else if let flag = try? container.decode(Bool.self) {
                value = .bool(flag)
            } else if let number = try? container.decode(Int.self) {
                value = .int(Int64(number))
            } else if let number = try? container.decode(Double.self) {
                value = .double(number)
            } else if let text = try? container.decode(String.self) {
                value = .string(text)
            } else if let items = try? container.decode([Argument].self) {
                value = .array(items.map(\.value))
            } else {
                let fields = try container.decode([String: Argument].self)
                value = .record(type: nil, fields: fields.keys.sorted().map { .init($0, fields[$0]!.value) })
            }
        }
    }
}
