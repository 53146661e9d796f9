import CStorePlugin
import StoreRuntime

#if canImport(Glibc)
    import Glibc
#endif

/// The two functions a Swift plugin exports, in a few lines of glue:
///
///     @_cdecl("storeplugin_info_v1")
///     public func pluginInfo() -> UnsafeRawPointer { StorePlugin.info(name: "counter", version: "1.0.0") }
///
///     @_cdecl("storeplugin_register_v1")
///     public func pluginRegister(_ host: UnsafeRawPointer, _ error: UnsafeMutableRawPointer) -> Int32 {
///         StorePlugin.register(host: host, error: error, models: [counterModel])
///     }
public enum StorePlugin {
    /// The plugin's `storeplugin_info`, made once. It names the Swift toolchain the plugin
    /// was built with, so a host built with another one refuses it instead of crashing.
    public static func info(name: String, version: String) -> UnsafeRawPointer {
        // Made on the first call and kept (a host asks again on every load of the file):
        // it lives as long as the plugin, as storeplugin.h says, and stays reachable.
        let key = name + "\u{0}" + version
        if let made = madeInfos[key] { return made }
        let info = UnsafeMutablePointer<storeplugin_info>.allocate(capacity: 1)
        info.initialize(
            to: storeplugin_info(
                struct_size: UInt32(MemoryLayout<storeplugin_info>.size),
                magic: STOREPLUGIN_MAGIC,
                abi_version: STOREPLUGIN_ABI_VERSION,
                name: UnsafePointer(strdup(name)),
                version: UnsafePointer(strdup(version)),
                toolchain: storeplugin_compiler_tag()
            ))
        madeInfos[key] = UnsafeRawPointer(info)
        return UnsafeRawPointer(info)
    }

    /// Each info made, by name and version. Only the host's main thread calls `info`
    /// (storeplugin.h, "Threads").
    nonisolated(unsafe) private static var madeInfos: [String: UnsafeRawPointer] = [:]

    /// Registers `models` with the host. Returns the ABI status code for the entry point.
    public static func register(host: UnsafeRawPointer, error: UnsafeMutableRawPointer, models: [PluginModel]) -> Int32
    {
        let table = host.assumingMemoryBound(to: storeplugin_host.self)
        let errorPointer = error.assumingMemoryBound(to: sp_error.self)
        // A host on a virtual clock settles effects and wants them in a fixed order: run
        // its stores' effect work one piece at a time on the main queue.
        if table.pointee.covers(\.virtual_clock), table.pointee.virtual_clock != STOREPLUGIN_CLOCK_REAL {
            EffectScheduling.runSerially(
                in: HostServices(table: table).scope,
                worldIsHosts: table.pointee.virtual_clock == STOREPLUGIN_CLOCK_VIRTUAL_WORLD)
        }
        for model in models {
            let pointers = Unchecked((table, errorPointer))
            let status = MainActor.assumeIsolated { register(model, table: pointers.value.0, error: pointers.value.1) }
            guard status == Int32(SP_OK) else { return status }
        }
        return Int32(SP_OK)
    }

    @MainActor
    private static func register(
        _ model: PluginModel, table: UnsafePointer<storeplugin_host>, error: UnsafeMutablePointer<sp_error>
    ) -> Int32 {
        if let problem = model.checksProblem {
            error.write(problem)
            return Int32(SP_ERR_REGISTRATION)
        }
        var strings = CStrings()
        defer { strings.free() }
        let handle = ModelHandle(model, services: HostServices(table: table))
        let actions = UnsafeMutablePointer<sp_action>.allocate(capacity: max(1, model.actions.count))
        var paramLists: [UnsafeMutablePointer<sp_param>] = []
        defer {
            actions.deallocate()
            paramLists.forEach { $0.deallocate() }
        }
        for (index, action) in model.actions.enumerated() {
            let params = UnsafeMutablePointer<sp_param>.allocate(capacity: max(1, action.params.count))
            paramLists.append(params)
            for (position, param) in action.params.enumerated() {
                params[position] = sp_param(
                    struct_size: UInt32(MemoryLayout<sp_param>.size), label: strings.copy(param.label),
                    type: strings.copy(param.kind.rawValue), doc: strings.copy(param.doc),
                    shape: strings.copy(param.shape?.text), default_value: strings.copy(param.defaultValue))
            }
            let signature =
                action.params.allSatisfy({ $0.kind != .value }) ? action.params.map(\.kind.letter).joined() : nil
            let entry = signature.flatMap(TypedEntries.entry(for:))
            actions[index] = sp_action(
                struct_size: UInt32(MemoryLayout<sp_action>.size), name: strings.copy(action.name),
                doc: strings.copy(action.doc),
                params: UnsafePointer(params), param_count: UInt32(action.params.count),
                signature: entry == nil ? nil : strings.copy(signature), typed_entry: entry,
                action_data: UnsafeMutableRawPointer(bitPattern: index + 1)
            )
        }
        let services = UnsafeMutablePointer<sp_service>.allocate(capacity: max(1, model.services.count))
        defer { services.deallocate() }
        for (index, service) in model.services.enumerated() {
            services[index] = sp_service(
                struct_size: UInt32(MemoryLayout<sp_service>.size), name: strings.copy(service.name),
                doc: strings.copy(service.doc), signature: strings.copy(service.signature),
                default_impl: unsafeBitCast(service.implementation, to: sp_typed_entry.self))
        }
        let identity = UnsafeMutablePointer<UnsafePointer<CChar>?>.allocate(capacity: model.identityFields.count + 1)
        defer { identity.deallocate() }
        for (index, field) in model.identityFields.enumerated() { identity[index] = strings.copy(field) }
        identity[model.identityFields.count] = nil
        let invariants = UnsafeMutablePointer<UnsafePointer<CChar>?>.allocate(capacity: model.invariants.count + 1)
        defer { invariants.deallocate() }
        for (index, check) in model.invariants.enumerated() { invariants[index] = strings.copy(check) }
        invariants[model.invariants.count] = nil
        let checks = UnsafeMutablePointer<sp_check>.allocate(capacity: max(1, model.checks.count))
        defer { checks.deallocate() }
        for (index, check) in model.checks.enumerated() {
            checks[index] = sp_check(
                struct_size: UInt32(MemoryLayout<sp_check>.size),
                kind: check.isPostcondition ? SP_CHECK_POSTCONDITION : SP_CHECK_INVARIANT,
                name: strings.copy(check.name),
                doc: nil)
        }
        var description = sp_model(
            struct_size: UInt32(MemoryLayout<sp_model>.size), name: strings.copy(model.name),
            doc: strings.copy(model.doc),
            actions: UnsafePointer(actions), action_count: UInt32(model.actions.count),
            services: UnsafePointer(services), service_count: UInt32(model.services.count),
            model_data: Unmanaged.passRetained(handle).toOpaque(),
            create: Trampolines.create, destroy: Trampolines.destroy, dispatch: Trampolines.dispatch,
            snapshot: Trampolines.snapshot,
            replay: Trampolines.replay, restore: Trampolines.restore, snapshot_changes: Trampolines.snapshotChanges,
            identity_fields: model.identityFields.isEmpty ? nil : UnsafePointer(identity),
            snapshot_encoded: Trampolines.snapshotEncoded,
            invariants: model.invariants.isEmpty ? nil : UnsafePointer(invariants),
            snapshot_changes_encoded: Trampolines.snapshotChangesEncoded,
            effects_idle: Trampolines.effectsIdle,
            checks: model.checks.isEmpty ? nil : UnsafePointer(checks), check_count: UInt32(model.checks.count),
            check: model.checks.isEmpty ? nil : Trampolines.check
        )
        return table.pointee.register_model(table.pointee.host_data, &description, error)
    }
}

extension Param.Kind {
    var letter: String {
        switch self {
        case .int: "i"
        case .double: "d"
        case .bool: "b"
        case .string: "s"
        case .value: ""
        }
    }
}

/// C strings that live until registration returns (the host copies what it keeps).
private struct CStrings {
    private var owned: [UnsafeMutablePointer<CChar>] = []

    mutating func copy(_ text: String?) -> UnsafePointer<CChar>? {
        guard let text, let copy = strdup(text) else { return nil }
        owned.append(copy)
        return UnsafePointer(copy)
    }

    func free() { owned.forEach { Glibc.free($0) } }
}

/// What `model_data` points to.
final class ModelHandle {
    let model: PluginModel
    let services: HostServices
    init(_ model: PluginModel, services: HostServices) {
        self.model = model
        self.services = services
    }
}

/// What a store handle points to.
@MainActor
final class StoreHandle {
    let store: PluginStore
    let context: StoreContext
    let actionNames: [String]
    /// The model's checks in code, as `sp_model.checks` lists them.
    let checks: [CodeCheck]
    /// The bytes of the last encoded snapshot, kept to reuse their memory.
    var encoding = WireWriter()
    init(store: PluginStore, context: StoreContext, actionNames: [String], checks: [CodeCheck]) {
        self.store = store
        self.context = context
        self.actionNames = actionNames
        self.checks = checks
    }
}

extension storeplugin_host {
    /// True when the host's table has `field` (a host built against an older header has a
    /// shorter table: members are appended behind struct_size).
    func covers<Field>(_ field: KeyPath<storeplugin_host, Field>) -> Bool {
        guard let offset = MemoryLayout<storeplugin_host>.offset(of: field) else { return false }
        return Int(struct_size) >= offset + MemoryLayout<Field>.size
    }
}
