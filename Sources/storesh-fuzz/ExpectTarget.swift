import Foundation
import StoreHost
import StoreService
import StoreValue

extension FuzzTarget {
    /// Bytes as a client's `expect` (MCP's `tools/call`, the inspector's form): the first
    /// byte picks the operator, the rest is the JSON object of `path` and `value`. The
    /// condition the operation hands the core (unless it refuses the arguments) is written
    /// for the tape as text that reads back as that condition (the typed path and the
    /// prompt's agree), and checking it never traps.
    static func typedExpectation(_ data: Data) {
        guard let pick = data.first else { return }
        let comparisons = PropertyOperator.allCases.filter(\.isComparison)
        let op = comparisons[Int(pick) % comparisons.count]
        guard let arguments = try? JSONArguments.read(Array(data.dropFirst().prefix(8192))),
            case .string(let path)? = arguments["path"], let value = arguments["value"]
        else { return }
        let condition: StateCondition
        do throws(OperationError) {
            condition = try SessionService.expectation(path: path, op: op.rawValue, value: value)
        } catch {
            return
        }
        // What the tape records, and `:expect` at the prompt reads.
        let written = condition.description
        let again: StateCondition
        do throws(TextError) {
            again = try StateCondition.parse(written)
        } catch {
            violated(
                "'\(path)' \(op.rawValue) \(value.compact) was recorded as '\(written)', which does not read: \(error)")
        }
        guard again == condition else {
            violated("'\(written)' reads back as '\(again.description)', another condition")
        }
        let state: Value = .record(
            type: nil,
            fields: [
                .init("count", .int(3)), .init("name", .string("a")),
                .init("items", .array([.record(type: nil, fields: [.init("id", .string("x"))])])),
            ])
        _ = condition.explain(condition.check(state, identity: StateDiff(identityFields: ["id"])))
    }
}
