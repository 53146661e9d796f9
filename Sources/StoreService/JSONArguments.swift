import Foundation
package import StoreValue

/// An operation's arguments sent as a JSON object (the inspector's request body), read as
/// JSON into value trees: numbers stay ints when whole, objects become records with their
/// fields in name order (JSON objects have no order), as MCP's arguments are. Not through
/// the action-text grammar: it reads more than JSON, and a client's JSON is no action text.
package enum JSONArguments {
    /// The arguments by name; an empty or blank body is none.
    package static func read(_ body: [UInt8]) throws(OperationError) -> [String: Value] {
        guard body.contains(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }) else { return [:] }
        let tree = try value(of: body, what: "the arguments")
        guard case .record(_, let fields) = tree else {
            throw OperationError("the arguments must be a JSON object, not \(tree.kindName)")
        }
        var arguments: [String: Value] = [:]
        for field in fields { arguments[field.label ?? ""] = field.value }
        return arguments
    }

    /// Any JSON text as its value tree (objects' fields in name order); `what` names the
    /// text in the error that says why it is not JSON.
    package static func value(of body: [UInt8], what: String) throws(OperationError) -> Value {
        do {
            return try JSONDecoder().decode(Tree.self, from: Data(body)).value
        } catch let error as DecodingError {
            throw OperationError("\(what) are not JSON: \(describe(error))")
        } catch {
            throw OperationError("\(what) are not JSON: \(error)")
        }
    }

    private static func describe(_ error: DecodingError) -> String {
        switch error {
        case .dataCorrupted(let context):
            let underlying = context.underlyingError.map { " (\($0.localizedDescription))" } ?? ""
            return context.debugDescription + underlying
        default:
            return "\(error)"
        }
    }

    /// Any JSON value as the value tree of its kind, at most `Value.maxDepth` levels deep.
    private struct Tree: Decodable {
        let value: Value

        init(from decoder: any Decoder) throws {
            guard decoder.codingPath.count <= Value.maxDepth else {
                throw DecodingError.dataCorrupted(
                    .init(
                        codingPath: decoder.codingPath,
                        debugDescription: "the value nests deeper than \(Value.maxDepth) levels"))
            }
            if var items = try? decoder.unkeyedContainer() {
                var values: [Value] = []
                while !items.isAtEnd { values.append(try items.decode(Tree.self).value) }
                value = .array(values)
                return
            }
            if let object = try? decoder.container(keyedBy: Name.self) {
                let names = object.allKeys.sorted { $0.stringValue < $1.stringValue }
                value = .record(
                    type: nil,
                    fields: try names.map { .init($0.stringValue, try object.decode(Tree.self, forKey: $0).value) })
                return
            }
            let single = try decoder.singleValueContainer()
            if single.decodeNil() {
                value = .null
            } else if let text = try? single.decode(String.self) {
                value = .string(text)
            } else if let flag = try? single.decode(Bool.self) {
                value = .bool(flag)
            } else if let number = try? single.decode(Int64.self) {
                value = .int(number)
            } else {
                value = .double(try single.decode(Double.self))
            }
        }
    }

    private struct Name: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
