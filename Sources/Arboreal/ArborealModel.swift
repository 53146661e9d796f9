public import Observation

/// A reference model, observed with Observation: `update` mutates the model in place and
/// returns the effects to run.
@MainActor
public protocol ArborealModel: AnyObject, Observable {
    /// What can happen to the model: usually an enum.
    associatedtype Action: Sendable
    /// The services `update` may use; `Void` when it needs none.
    associatedtype Environment

    /// Applies `action` to the model in place and returns the effects to run.
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
    /// The model the store holds.
    associatedtype Model: ArborealModel

    /// The model.
    var state: Model { get }
    /// Applies `action` through the model's update and starts its effects.
    func send(_ action: Model.Action)
}
