import Foundation
import MCP
import MCPLines

/// What a request's params must be for each method the server answers, checked before the
/// request runs: params of the wrong shape are JSON-RPC's `-32602` with what was wrong and
/// where (`params.name should be a string`), not the SDK's internal error with Foundation's
/// text.
enum ParameterChecks {
    /// The check for `M`: its params decode as `M.Parameters`, or are absent where `M`
    /// needs none.
    static func check<M: MCP.Method>(_ method: M.Type) -> (String, IncomingMessage.ParameterCheck) {
        let check: IncomingMessage.ParameterCheck = { line in
            do {
                _ = try JSONDecoder().decode(ParamsOf<M>.self, from: line)
                return nil
            } catch let error as DecodingError {
                return describe(error)
            } catch {
                return "\(error)"
            }
        }
        return (M.name, check)
    }

    /// The check for `tools/call`: as `check(CallTool.self)`, but its arguments are read
    /// only as JSON. The SDK's values build a regular expression for every string they
    /// decode (to find data URLs), which was the larger part of a call's own cost.
    static func toolCallCheck() -> (String, IncomingMessage.ParameterCheck) {
        let check: IncomingMessage.ParameterCheck = { line in
            do {
                _ = try JSONDecoder().decode(ToolCallParams.self, from: line)
                return nil
            } catch let error as DecodingError {
                return describe(error)
            } catch {
                return "\(error)"
            }
        }
        return (CallTool.name, check)
    }

    /// Says a decoding error in a user's words: the member, and what it should be.
    static func describe(_ error: DecodingError) -> String {
        switch error {
        case .typeMismatch(let type, let context):
            return "\(path(context.codingPath)) should be \(kind(type))"
        case .valueNotFound(let type, let context):
            return "\(path(context.codingPath)) should be \(kind(type)), not null"
        case .keyNotFound(let key, let context):
            if context.codingPath.isEmpty, key.stringValue == "params" { return "params are missing" }
            return "\(path(context.codingPath)) needs '\(key.stringValue)'"
        case .dataCorrupted(let context):
            return "\(path(context.codingPath)): \(context.debugDescription)"
        @unknown default:
            return "the params cannot be read"
        }
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        let inside = keys.first?.stringValue == "params" ? keys.dropFirst() : keys[...]
        return inside.reduce("params") { path, key in
            if let index = key.intValue { return "\(path)[\(index)]" }
            return "\(path).\(key.stringValue)"
        }
    }

    private static func kind(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "a boolean"
        case is Int.Type, is Int64.Type, is Int32.Type, is UInt.Type: "an integer"
        case is Double.Type, is Float.Type: "a number"
        case is [Any].Type: "an array"
        case is [String: Any].Type: "an object"
        default: String(describing: type)
        }
    }

    /// A request's params, read as `M.Parameters` (absent or null: fine if `M` needs none).
    private struct ParamsOf<M: MCP.Method>: Decodable {
        enum CodingKeys: String, CodingKey { case params }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            let absent = try !container.contains(.params) || container.decodeNil(forKey: .params)
            if absent {
                guard M.Parameters.self is any NotRequired.Type || M.Parameters.self == Empty.self else {
                    throw DecodingError.keyNotFound(
                        CodingKeys.params,
                        .init(codingPath: [], debugDescription: "\(M.name) needs params"))
                }
                return
            }
            _ = try container.decode(M.Parameters.self, forKey: .params)
        }
    }

    /// A `tools/call` request's params, read as `CallTool.Parameters` reads them, with
    /// arguments of any JSON.
    private struct ToolCallParams: Decodable {
        enum CodingKeys: String, CodingKey { case params }
        enum ParamsKeys: String, CodingKey { case _meta, name, arguments }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            guard try container.contains(.params) && !container.decodeNil(forKey: .params) else {
                throw DecodingError.keyNotFound(
                    CodingKeys.params, .init(codingPath: [], debugDescription: "\(CallTool.name) needs params"))
            }
            let params = try container.nestedContainer(keyedBy: ParamsKeys.self, forKey: .params)
            _ = try params.decodeIfPresent(Metadata.self, forKey: ._meta)
            _ = try params.decode(String.self, forKey: .name)
            _ = try params.decodeIfPresent([String: AnyJSON].self, forKey: .arguments)
        }
    }

    /// Any JSON value, read and dropped.
    private struct AnyJSON: Decodable {
        init(from decoder: any Decoder) throws {
            if var items = try? decoder.unkeyedContainer() {
                while !items.isAtEnd { _ = try items.decode(AnyJSON.self) }
            } else if let object = try? decoder.container(keyedBy: AnyKey.self) {
                for key in object.allKeys { _ = try object.decode(AnyJSON.self, forKey: key) }
            }
        }
    }

    private struct AnyKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
