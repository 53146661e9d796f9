import Foundation
import MCP
import StoreValue

/// Between MCP's JSON values (a tool's arguments, its structured content) and storesh's
/// value trees. Value trees nest at most `StoreValue.Value`'s 256 levels; deeper
/// arguments are refused with that limit named, never followed into a deep recursion.
enum ValueBridge {
    /// The deepest arguments taken, as action literals are.
    static let nestingLimit = 256

    /// A refusal: an argument nested too deep.
    struct TooDeep: Error {
        let name: String
        var message: String { "'\(name)' nests deeper than \(ValueBridge.nestingLimit) levels" }
    }

    /// A tool's arguments as value trees: numbers stay ints when whole, objects become
    /// records with their fields in name order (JSON objects have no order).
    static func arguments(_ arguments: [String: MCP.Value]?) throws(TooDeep) -> [String: StoreValue.Value] {
        var converted: [String: StoreValue.Value] = [:]
        for (name, value) in arguments ?? [:] {
            guard let tree = storeValue(value, depth: 0) else { throw TooDeep(name: name) }
            converted[name] = tree
        }
        return converted
    }

    /// nil when `value` nests deeper than the limit.
    private static func storeValue(_ value: MCP.Value, depth: Int) -> StoreValue.Value? {
        guard depth <= nestingLimit else { return nil }
        switch value {
        case .null: return .null
        case .bool(let flag): return .bool(flag)
        case .int(let number): return .int(Int64(number))
        case .double(let number): return .double(number)
        case .string(let text): return .string(text)
        case .data(let mimeType, let data):
            // The SDK reads a string that looks like a data: URL as data; it was a string.
            return .string("data:\(mimeType ?? "application/octet-stream");base64,\(data.base64EncodedString())")
        case .array(let items):
            var converted: [StoreValue.Value] = []
            converted.reserveCapacity(items.count)
            for item in items {
                guard let tree = storeValue(item, depth: depth + 1) else { return nil }
                converted.append(tree)
            }
            return .array(converted)
        case .object(let fields):
            var converted: [StoreValue.Value.Field] = []
            converted.reserveCapacity(fields.count)
            for name in fields.keys.sorted() {
                guard let tree = storeValue(fields[name]!, depth: depth + 1) else { return nil }
                converted.append(.init(name, tree))
            }
            return .record(type: nil, fields: converted)
        }
    }

    /// A JSON text (one of storesh's records) as an MCP value; a string holding the text
    /// if it does not parse, which storesh's own writer never gives. Not through
    /// `MCP.Value`'s own decoding: it matches every string against a data-URL regex it
    /// builds anew each time (most of a `send`'s round trip), and would turn a string
    /// that looks like a data URL into data.
    static func json(_ text: String) -> MCP.Value {
        (try? JSONDecoder().decode(JSONTree.self, from: Data(text.utf8)).value) ?? .string(text)
    }

    /// Any JSON value, read as the `MCP.Value` of its kind; strings stay strings.
    private struct JSONTree: Decodable {
        let value: MCP.Value

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() {
                value = .null
            } else if let text = try? container.decode(String.self) {
                value = .string(text)
            } else if let flag = try? container.decode(Bool.self) {
                value = .bool(flag)
            } else if let number = try? container.decode(Int.self) {
                value = .int(number)
            } else if let number = try? container.decode(Double.self) {
                value = .double(number)
            } else if let fields = try? container.decode([String: JSONTree].self) {
                value = .object(fields.mapValues(\.value))
            } else {
                value = .array(try container.decode([JSONTree].self).map(\.value))
            }
        }
    }
}
