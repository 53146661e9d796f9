import StoreShell
package import StoreValue

/// An operation's arguments sent as a JSON object (the inspector's request body), read as
/// JSON into value trees: numbers stay ints when whole, objects become records with their
/// fields in name order (JSON objects have no order), as MCP's arguments are. Not through
/// the action-text grammar: it reads more than JSON, and a client's JSON is no action text.
package enum JSONArguments {
    /// The arguments by name; an empty or blank body is none.
    package static func read(_ body: [UInt8]) throws(OperationError) -> [String: Value] {
        guard body.contains(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }) else { return [:] }
        let tree: Value
        do throws(JSON.Unreadable) {
            tree = try JSON.value(of: body)
        } catch {
            throw OperationError("the arguments are not JSON: \(error.message)")
        }
        guard case .record(_, let fields) = tree else {
            throw OperationError("the arguments must be a JSON object, not \(tree.kindName)")
        }
        var arguments: [String: Value] = [:]
        for field in fields { arguments[field.label ?? ""] = field.value }
        return arguments
    }
}
