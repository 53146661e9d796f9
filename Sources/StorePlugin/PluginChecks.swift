import CStorePlugin

/// A property a model checks in its own Swift code, which storesh asks for after every
/// step it explores (storeplugin.h's `sp_check`): where the property language cannot say
/// it, or the model's own types say it better.
@usableFromInline
struct CodeCheck {
    /// The last action a store dispatched, and its state just before it.
    @usableFromInline
    struct Step {
        @usableFromInline let old: Any
        @usableFromInline let action: Any

        @usableFromInline init(old: Any, action: Any) {
            self.old = old
            self.action = action
        }
    }

    let name: String
    let isPostcondition: Bool
    /// Whether it holds of `state` (and, for a postcondition, of `step`).
    let holds: @MainActor (_ state: Any, _ step: Step?) -> Bool
}

extension PluginModel {
    /// The model with an invariant written in Swift: `holds` must be true of the state
    /// after every step `storesh explore` takes, and `:check-model NAME` asks for it.
    /// `State` is the model's state (an Arboreal model's shown state):
    ///
    ///     .invariant("the total is the sum of the lines") { (cart: Cart) in
    ///         cart.total == cart.lines.map(\.price).reduce(0, +)
    ///     }
    ///
    /// `name` is any text, unique among the model's checks. A closure over another type
    /// fails the plugin's registration, naming the check and both types.
    public func invariant<State>(_ name: String, _ holds: @escaping @MainActor (_ state: State) -> Bool)
        -> PluginModel
    {
        var model = self
        if State.self != stateType {
            model.checkProblems.append(
                "invariant \"\(name)\" takes \(State.self), but the model's state is \(stateType)")
        }
        model.checks.append(
            CodeCheck(name: name, isPostcondition: false) { state, _ in (state as? State).map(holds) ?? false })
        return model
    }

    /// The model with a postcondition written in Swift: `holds` must be true of every
    /// action storesh dispatches, given the state before it, the action, and the state
    /// after it (what the action's effects did by the end of the step included):
    ///
    ///     .postcondition("kill forgets the name") { (old: Registry, action: Registry.Action, new: Registry) in
    ///         guard case .kill(let pid) = action, let name = old.names[pid] else { return true }
    ///         return new.pids[name] == nil
    ///     }
    ///
    /// An action the model refused is not checked. `State` is the model's state (an
    /// Arboreal model's shown state) and `Action` its action type; other types fail the
    /// plugin's registration.
    public func postcondition<State, Action>(
        _ name: String, _ holds: @escaping @MainActor (_ old: State, _ action: Action, _ new: State) -> Bool
    ) -> PluginModel {
        var model = self
        if State.self != stateType || Action.self != actionType {
            model.checkProblems.append(
                "postcondition \"\(name)\" takes (\(State.self), \(Action.self), \(State.self)), but the model's state is \(stateType) and its action \(actionType)"
            )
        }
        model.checks.append(
            CodeCheck(name: name, isPostcondition: true) { state, step in
                guard let step else { return true }
                guard let new = state as? State, let old = step.old as? State, let action = step.action as? Action
                else { return false }
                return holds(old, action, new)
            })
        return model
    }

    /// Why the checks cannot be registered as declared, or nil.
    var checksProblem: String? {
        if let problem = checkProblems.first { return "model '\(name)': \(problem)" }
        var names = Set<String>()
        for check in checks {
            guard !check.name.isEmpty else { return "model '\(name)': a check has an empty name" }
            guard names.insert(check.name).inserted else {
                return "model '\(name)': two checks are named \"\(check.name)\""
            }
        }
        guard checks.count <= 64 else { return "model '\(name)': \(checks.count) checks; at most 64" }
        return nil
    }
}

extension Trampolines {
    /// `sp_model.check`: evaluates one check on the store now.
    static let check:
        @convention(c) (UnsafeMutableRawPointer?, UInt32, UnsafeMutablePointer<Int32>?, UnsafeMutablePointer<sp_error>?)
            -> Int32 = { store, index, holds, error in
                let args = Unchecked((store, holds, error))
                return MainQueue.run {
                    let (store, holds, error) = args.value
                    guard let store, let holds else { return Int32(SP_ERR_INTERNAL) }
                    let handle = Unmanaged<StoreHandle>.fromOpaque(store).takeUnretainedValue()
                    guard Int(index) < handle.checks.count else {
                        error?.write("no check #\(index): the model has \(handle.checks.count)")
                        return Int32(SP_ERR_INTERNAL)
                    }
                    let check = handle.checks[Int(index)]
                    let (state, step) = handle.store.checked()
                    holds.pointee = check.holds(state, step) ? 1 : 0
                    return Int32(SP_OK)
                }
            }
}
