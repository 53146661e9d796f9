import Foundation
package import StoreValue

extension JSON {
    /// Why a text is not JSON, as the reader says it.
    package struct Unreadable: Error, Sendable {
        package let message: String
    }

    /// Any JSON text as its value tree: numbers stay ints when whole, objects become
    /// records with their fields in name order (JSON objects have no order), at most
    /// `Value.maxDepth` levels deep. The one reader of JSON into values: an action's
    /// arguments from MCP or the inspector, a shard's report (`ExploreShardReport`).
    package static func value(of bytes: [UInt8]) throws(Unreadable) -> Value {
        do {
            return try JSONDecoder().decode(Tree.self, from: Data(bytes)).value
        } catch let error as DecodingError {
            throw Unreadable(message: describe(error))
        } catch {
            throw Unreadable(message: "\(error)")
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
