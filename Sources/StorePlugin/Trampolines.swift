import CStorePlugin
import StoreRuntime
import StoreValue

/// The C functions in every SDK plugin's `sp_model`; all model-specific behaviour is
/// reached through `model_data` and the store handle.
enum Trampolines {
    static let create:
        @convention(c) (
            UnsafeMutableRawPointer?, UnsafePointer<sp_store_context>?, UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
            UnsafeMutablePointer<sp_error>?
        ) -> Int32 = { modelData, context, storeOut, error in
            let args = Unchecked((modelData, context, storeOut, error))
            return MainQueue.run {
                let (modelData, context, storeOut, error_) = args.value
                guard let modelData, let context, let storeOut else { return Int32(SP_ERR_INTERNAL) }
                let modelHandle = Unmanaged<ModelHandle>.fromOpaque(modelData).takeUnretainedValue()
                EffectScheduling.scope = modelHandle.services.scope
                let model = modelHandle.model
                let storeContext = StoreContext(
                    context, serviceNames: model.services.map(\.name), services: modelHandle.services)
                storeContext.recordsSteps = model.checks.contains(where: \.isPostcondition)
                do throws(PluginFailure) {
                    let store = try model.makeStore(storeContext)
                    storeOut.pointee = Unmanaged.passRetained(
                        StoreHandle(
                            store: store, context: storeContext, actionNames: model.actions.map(\.name),
                            checks: model.checks)
                    ).toOpaque()
                    return Int32(SP_OK)
                } catch {
                    error_?.write(error.message)
                    return error.code
                }
            }
        }

    static let destroy: @convention(c) (UnsafeMutableRawPointer?) -> Void = { store in
        let store = Unchecked(store)
        MainQueue.run {
            guard let raw = store.value else { return }
            let handle = Unmanaged<StoreHandle>.fromOpaque(raw).takeRetainedValue()
            handle.store.dispose()
        }
    }

    static let dispatch:
        @convention(c) (
            UnsafeMutableRawPointer?, UnsafePointer<CChar>?, UnsafePointer<sp_value>?,
            UnsafeMutablePointer<sp_dispatch_result>?, UnsafeMutablePointer<sp_error>?
        ) -> Int32 = { store, name, arguments, result, error in
            run(store, name, arguments, result, error) { handle, index, values throws(PluginFailure) in
                try handle.store.dispatch(index, values)
            }
        }

    static let replay:
        @convention(c) (
            UnsafeMutableRawPointer?, UnsafePointer<CChar>?, UnsafePointer<sp_value>?,
            UnsafeMutablePointer<sp_dispatch_result>?, UnsafeMutablePointer<sp_error>?
        ) -> Int32 = { store, name, arguments, result, error in
            run(store, name, arguments, result, error) { handle, index, values throws(PluginFailure) in
                try handle.store.replay(index, values)
            }
        }

    /// The shared half of dispatch and replay: finds the action by name, reads the
    /// arguments, runs `body` on the main actor and reports its outcome or failure.
    private static func run(
        _ store: UnsafeMutableRawPointer?, _ name: UnsafePointer<CChar>?, _ arguments: UnsafePointer<sp_value>?,
        _ result: UnsafeMutablePointer<sp_dispatch_result>?, _ error: UnsafeMutablePointer<sp_error>?,
        _ body: @MainActor (StoreHandle, Int, [Value]) throws(PluginFailure) -> DispatchOutcome
    ) -> Int32 {
        let actionName = name.map { String(cString: $0) } ?? ""
        let values: [Value]
        if let arguments, case .array(let items)? = try? Value(reading: arguments) {
            values = items
        } else {
            values = []
        }
        let args = Unchecked((store, result, error))
        return MainQueue.run {
            let (store, result, errorOut) = args.value
            guard let store else { return Int32(SP_ERR_INTERNAL) }
            let handle = Unmanaged<StoreHandle>.fromOpaque(store).takeUnretainedValue()
            EffectScheduling.scope = handle.context.services.scope
            guard let index = handle.actionIndex(actionName) else {
                errorOut?.write("no action named '\(actionName)'")
                return Int32(SP_ERR_UNKNOWN_ACTION)
            }
            return TypedDispatch.perform(result, errorOut) { () throws(PluginFailure) in try body(handle, index, values)
            }
        }
    }

    static let restore:
        @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<sp_value>?, UnsafeMutablePointer<sp_error>?) -> Int32 =
            { store, state, error in
                guard let state else { return Int32(SP_ERR_BAD_ARGUMENTS) }
                guard let value = try? Value(reading: state) else {
                    error?.write("the state is nested more than \(Value.maxDepth) levels deep")
                    return Int32(SP_ERR_BAD_ARGUMENTS)
                }
                let args = Unchecked((store, error))
                return MainQueue.run {
                    let (store, errorOut) = args.value
                    guard let store else { return Int32(SP_ERR_INTERNAL) }
                    let handle = Unmanaged<StoreHandle>.fromOpaque(store).takeUnretainedValue()
                    EffectScheduling.scope = handle.context.services.scope
                    guard let restore = handle.store.restore else {
                        errorOut?.write("this model cannot be restored from a snapshot")
                        return Int32(SP_ERR_REJECTED)
                    }
                    do throws(PluginFailure) {
                        try restore(value)
                        return Int32(SP_OK)
                    } catch {
                        errorOut?.write(error.message)
                        return error.code
                    }
                }
            }

    static let snapshot: @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutablePointer<sp_value>? = { store in
        let store = Unchecked(store)
        let built: Unchecked<UnsafeMutablePointer<sp_value>?> = MainQueue.run {
            guard let raw = store.value else { return Unchecked(nil) }
            let handle = Unmanaged<StoreHandle>.fromOpaque(raw).takeUnretainedValue()
            guard let value = try? handle.store.snapshot() else { return Unchecked(nil) }
            return Unchecked(value.build(with: handle.context.services.host))
        }
        return built.value
    }

    /// The host's `write` for the encoded entry points.
    typealias WriteBytes = @convention(c) (UnsafeMutableRawPointer?, UnsafeRawPointer?, Int) -> Int32

    /// `snapshot_encoded`: the snapshot's value, written in the worker protocol's encoding
    /// and handed to `write` in one piece.
    static let snapshotEncoded:
        @convention(c) (UnsafeMutableRawPointer?, WriteBytes?, UnsafeMutableRawPointer?) -> Int32 = {
            store, write, sink in
            writing(store, write, sink) { handle, write, sink in
                if let direct = handle.store.encodedSnapshot, let bytes = direct() {
                    return write(sink, bytes.baseAddress, bytes.count) == 0 ? Int32(SP_OK) : Int32(SP_ERR_NO_MEMORY)
                }
                // An encoding that throws is reported as snapshot reports it: the host then asks
                // for the tree, which fails the same way.
                guard let value = try? handle.store.snapshot() else { return Int32(SP_ERR_INTERNAL) }
                return hand(value, of: handle, to: write, sink)
            }
        }

    /// `snapshot_changes_encoded`: what `snapshotChanges` builds as a tree, written in the
    /// worker protocol's encoding and handed to `write` in one piece.
    static let snapshotChangesEncoded:
        @convention(c) (UnsafeMutableRawPointer?, WriteBytes?, UnsafeMutableRawPointer?) -> Int32 = {
            store, write, sink in
            writing(store, write, sink) { handle, write, sink in
                // No tracker, a small state or an encoding that throws: the host reads it whole.
                guard let changes = handle.store.changes, let patches = try? changes() else {
                    return Int32(SP_ERR_INTERNAL)
                }
                return hand(.array(patches.map(\.value)), of: handle, to: write, sink)
            }
        }

    /// `effects_idle`: whether any effect work of the store's host can still run without
    /// it (`EffectScheduling.isIdle`: the host's stores share the main queue, and one
    /// store's effect may act on another's through the host).
    static let effectsIdle: @convention(c) (UnsafeMutableRawPointer?) -> Int32 = { store in
        let store = Unchecked(store)
        return MainQueue.run {
            guard let raw = store.value else { return Int32(1) }
            let handle = Unmanaged<StoreHandle>.fromOpaque(raw).takeUnretainedValue()
            return EffectScheduling.isIdle(handle.context.services.scope) ? 1 : 0
        }
    }

    /// Runs `body` for the store's handle on the main queue: what both encoded entry points
    /// do around their own part.
    private static func writing(
        _ store: UnsafeMutableRawPointer?, _ write: WriteBytes?, _ sink: UnsafeMutableRawPointer?,
        _ body: @escaping @MainActor (StoreHandle, WriteBytes, UnsafeMutableRawPointer?) -> Int32
    ) -> Int32 {
        let args = Unchecked((store, write, sink, body))
        return MainQueue.run {
            let (store, write, sink, body) = args.value
            guard let store, let write else { return Int32(SP_ERR_INTERNAL) }
            return body(Unmanaged<StoreHandle>.fromOpaque(store).takeUnretainedValue(), write, sink)
        }
    }

    /// Encodes `value` into the handle's reused buffer and hands it to the host's `write`.
    @MainActor
    private static func hand(
        _ value: Value, of handle: StoreHandle, to write: WriteBytes, _ sink: UnsafeMutableRawPointer?
    ) -> Int32 {
        handle.encoding.bytes.removeAll(keepingCapacity: true)
        handle.encoding.value(value)
        return hand(handle.encoding.bytes, to: write, sink) == 0 ? Int32(SP_OK) : Int32(SP_ERR_NO_MEMORY)
    }

    /// Hands `bytes` to the host's `write`. Not on the main actor: a main-actor closure
    /// passed to `withUnsafeBytes` is compiled with a check of its isolation, 75–100 ns
    /// on every snapshot where no task runs (a worker answering a request).
    private nonisolated static func hand(_ bytes: [UInt8], to write: WriteBytes, _ sink: UnsafeMutableRawPointer?)
        -> Int32
    {
        bytes.withUnsafeBytes { write(sink, $0.baseAddress, $0.count) }
    }

    static let snapshotChanges: @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutablePointer<sp_value>? = {
        store in
        let store = Unchecked(store)
        let built: Unchecked<UnsafeMutablePointer<sp_value>?> = MainQueue.run {
            guard let raw = store.value else { return Unchecked(nil) }
            let handle = Unmanaged<StoreHandle>.fromOpaque(raw).takeUnretainedValue()
            guard let changes = handle.store.changes, let patches = try? changes() else { return Unchecked(nil) }
            return Unchecked(Value.array(patches.map(\.value)).build(with: handle.context.services.host))
        }
        return built.value
    }
}

/// Runs an action for a typed entry point or for `dispatch`.
enum TypedDispatch {
    static func run(
        _ store: UnsafeMutableRawPointer?, _ data: UnsafeMutableRawPointer?,
        _ result: UnsafeMutablePointer<sp_dispatch_result>?, _ error: UnsafeMutablePointer<sp_error>?,
        _ arguments: [Value]
    ) -> Int32 {
        let args = Unchecked((store, data, result, error))
        return MainQueue.run {
            let (store, data, result, error) = args.value
            guard let store, let data else { return Int32(SP_ERR_INTERNAL) }
            let handle = Unmanaged<StoreHandle>.fromOpaque(store).takeUnretainedValue()
            EffectScheduling.scope = handle.context.services.scope
            return perform(result, error) { () throws(PluginFailure) in
                try handle.store.dispatch(Int(bitPattern: data) - 1, arguments)
            }
        }
    }

    /// Runs an action and reports its outcome, or its failure, the ABI's way.
    @MainActor
    static func perform(
        _ result: UnsafeMutablePointer<sp_dispatch_result>?, _ errorOut: UnsafeMutablePointer<sp_error>?,
        _ action: @MainActor () throws(PluginFailure) -> DispatchOutcome
    ) -> Int32 {
        do throws(PluginFailure) {
            let outcome = try action()
            result?.pointee.state_changed = outcome.stateChanged ? 1 : 0
            result?.pointee.effects_started = UInt32(outcome.effectsStarted)
            return Int32(SP_OK)
        } catch {
            errorOut?.write(error.message)
            return error.code
        }
    }
}

extension StoreHandle {
    func actionIndex(_ name: String) -> Int? {
        actionNames.firstIndex(of: name)
    }
}
