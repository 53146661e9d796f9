package import StoreValue

/// `--after ACTION EXPR`: EXPR (which may read `old(…)`, `args` and `accepted`) checked
/// after every step that took ACTION.
package struct ExplorePostcondition: Sendable, Equatable {
    package let action: String
    package let condition: StateCondition

    package init(action: String, condition: StateCondition) {
        self.action = action
        self.condition = condition
    }

    /// Reads `ACTION EXPR` (as `:explore --after` takes it); a mistake is at its byte.
    package static func parse(action: String, expression: String) throws(TextError) -> ExplorePostcondition {
        ExplorePostcondition(action: action, condition: try StateCondition.parse(expression, context: .action))
    }
}
