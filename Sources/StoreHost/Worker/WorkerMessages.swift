package import StoreValue

// Message bodies of docs/worker-protocol.md whose writer (in the worker, StoreWorker) and
// reader (in the shell, WorkerPlugin and WorkerConnection) must agree field by field: each
// pair sits side by side here.

// MARK: load (request 2): the plugin's registration

extension WireWriter {
    /// The answer to `load`: the plugin, then each model's schema.
    package mutating func registration(of plugin: LoadedPlugin) {
        string(plugin.name)
        string(plugin.version)
        optionalString(plugin.toolchain)
        string(plugin.path)
        u32(UInt32(plugin.models.count))
        for model in plugin.models {
            string(model.name)
            optionalString(model.doc)
            bool(model.supportsTimeTravel)
            u32(UInt32(model.actions.count))
            for action in model.actions {
                string(action.name)
                optionalString(action.doc)
                bool(action.isTyped)
                u32(UInt32(action.params.count))
                for param in action.params {
                    optionalString(param.label)
                    string(param.type.rawValue)
                    optionalString(param.doc)
                    optionalString(param.declaredShape?.text)
                    optionalString(param.defaultValue?.compact)
                }
            }
            u32(UInt32(model.services.count))
            for service in model.services {
                string(service.name)
                optionalString(service.doc)
                string(service.signature)
            }
            u32(UInt32(model.identityFields.count))
            for field in model.identityFields { string(field) }
            u32(UInt32(model.invariants.count))
            for condition in model.invariants { string(condition.description) }
            u32(UInt32(model.checks.count))
            for check in model.checks {
                string(check.name)
                bool(check.isPostcondition)
                optionalString(check.doc)
            }
        }
    }
}

extension WireReader {
    /// Reads what `registration(of:)` wrote.
    mutating func registration() throws(WireError) -> WorkerPlugin.RegisteredPlugin {
        let name = try string()
        let version = try string()
        let toolchain = try optionalString()
        let resolved = try string()
        var models: [WorkerPlugin.ModelSchema] = []
        for _ in 0..<(try u32()) {
            let modelName = try string()
            let doc = try optionalString()
            let timeTravel = try bool()
            var actions: [(name: String, doc: String?, typed: Bool, params: [ParamDescriptor])] = []
            for _ in 0..<(try u32()) {
                let actionName = try string()
                let actionDoc = try optionalString()
                let typed = try bool()
                var params: [ParamDescriptor] = []
                for _ in 0..<(try u32()) {
                    let label = try optionalString()
                    let typeName = try string()
                    guard let type = ParamType(rawValue: typeName) else {
                        throw WireError(description: "unknown parameter type \(typeName)")
                    }
                    let doc = try optionalString()
                    let shapeText = try optionalString()
                    let defaultText = try optionalString()
                    do throws(ParamFacts.Problem) {
                        let (shape, defaultValue) = try ParamFacts.read(
                            type: type, shape: shapeText, defaultText: defaultText)
                        params.append(
                            ParamDescriptor(
                                label: label, type: type, doc: doc, shape: shape, defaultValue: defaultValue))
                    } catch {
                        throw WireError(description: "parameter \(label ?? "\(params.count)"): \(error.message)")
                    }
                }
                actions.append((actionName, actionDoc, typed, params))
            }
            var services: [(name: String, doc: String?, signature: String)] = []
            for _ in 0..<(try u32()) {
                services.append((try string(), try optionalString(), try string()))
            }
            var identityFields: [String] = []
            for _ in 0..<(try u32()) { identityFields.append(try string()) }
            var invariants: [StateCondition] = []
            for _ in 0..<(try u32()) {
                let text = try string()
                do throws(TextError) {
                    invariants.append(try StateCondition.parse(text))
                } catch {
                    throw WireError(description: "invariant \"\(text)\" does not read: \(error.message)")
                }
            }
            var checks: [ModelCheck] = []
            for _ in 0..<(try u32()) {
                checks.append(ModelCheck(name: try string(), isPostcondition: try bool(), doc: try optionalString()))
            }
            models.append(
                WorkerPlugin.ModelSchema(
                    name: modelName, doc: doc, timeTravel: timeTravel, actions: actions, services: services,
                    identityFields: identityFields, invariants: invariants, checks: checks))
        }
        return WorkerPlugin.RegisteredPlugin(
            name: name, version: version, toolchain: toolchain, resolvedPath: resolved, models: models)
    }
}

// MARK: send (request 5), and each action of send observed (13)

extension WireWriter {
    /// What `send` answers after the action ran: whether it changed the state and how many
    /// effects it started; then the state part, written by `sendState`.
    package mutating func sendAnswer(changed: Bool, effectsStarted: Int) {
        bool(changed)
        u32(UInt32(effectsStarted))
    }

    /// The state part of a send's answer, when there is none.
    package mutating func sendStateNone() { u8(0) }

    /// The state part of a send's answer, when the state follows (`state`, or
    /// `wholeState`, written next).
    package mutating func sendStateFollows() { u8(1) }

    /// The state part of a send's answer, when the state cannot be read: why.
    package mutating func sendStateUnreadable(_ error: SessionError) {
        u8(2)
        string(error.message)
    }
}

extension WireReader {
    /// Reads what `sendAnswer` and one of the `sendState…` writers wrote.
    mutating func sendAnswer() throws(WireError) -> (
        changed: Bool, effects: Int, state: Result<StateUpdate?, SessionError>
    ) {
        let changed = try bool()
        let effects = Int(try u32())
        var state: Result<StateUpdate?, SessionError> = .success(nil)
        switch try u8() {
        case 1: state = .success(try self.state())
        case 2: state = .failure(SessionError(message: try string()))
        default: break
        }
        return (changed, effects, state)
    }
}

// MARK: effect (message 0x81) and applied (0x82)

extension WireWriter {
    /// An effect event of `store`.
    package mutating func effectEvent(
        store: UInt32, kind: EffectEventRecord.Kind, effect: UInt64, label: String?, action: String?, message: String?
    ) {
        u32(store)
        u32(kind.rawValue)
        u64(effect)
        optionalString(label)
        optionalString(action)
        optionalString(message)
    }

    /// An effect's action `store` applied, whether it changed the state (nil: the model did
    /// not say), and the state after it when it could be read.
    package mutating func appliedAction(store: UInt32, action: String, changed: Bool?, state: StateUpdate?) {
        u32(store)
        string(action)
        u8(changed.map { $0 ? 1 : 0 } ?? 2)
        bool(state != nil)
        if let state { self.state(state) }
    }
}

extension WireReader {
    /// Reads what `effectEvent` wrote.
    mutating func effectEvent() throws(WireError) -> (
        store: UInt32, kind: UInt32, effect: UInt64, label: String?, action: String?, message: String?
    ) {
        (try u32(), try u32(), try u64(), try optionalString(), try optionalString(), try optionalString())
    }

    /// Reads what `appliedAction` wrote.
    mutating func appliedAction() throws(WireError) -> (
        store: UInt32, action: String, changed: Bool?, state: StateUpdate?
    ) {
        let store = try u32()
        let action = try string()
        let changed = try u8()
        let state = try bool() ? try self.state() : nil
        return (store, action, changed == 2 ? nil : changed == 1, state)
    }
}
