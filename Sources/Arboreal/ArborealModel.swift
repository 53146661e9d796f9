public import Observation
/// A reference model, observed with Observation: `update` mutates the model in place and
/// returns the effects to run.
@MainActor
public protocol ArborealModel: AnyObject, Observable {
    associatedtype Action: Sendable
    associatedtype Environment

    func update(action: Action, environment: Environment) -> Fx<Action>
}

extension ArborealModel {
    /// Applies `actions` in order and returns all their effects, merged in action order.
    public func update(actions: [Action], environment: Environment) -> Fx<Action> {
        var fx = Fx<Action>.none
        for action in actions {
            fx = fx.merge(update(action: action, environment: environment))
        }
        return fx
    }
}

/// Anything that holds an Arboreal model and accepts its actions: a `Store`, or a
/// `ViewStore` scoped to a child model.
@MainActor
public protocol ArborealStore: ScopeParent where State == Model, Action == Model.Action {
    associatedtype Model: ArborealModel

    var state: Model { get }
    func send(_ action: Model.Action)
}
