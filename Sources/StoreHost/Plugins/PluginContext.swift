import CStorePlugin
import StoreValue

/// What `host_data` points to for one plugin: the services table the plugin was given,
/// and the models it registered. Plugins are never unloaded, and code in one may call
/// its table at any time — an effect's task that starts after its store and its host are
/// gone (a test's host, released while the library stays loaded) — so the table keeps
/// its context for good, and the context holds its host weakly: without one, the
/// plugin's log lines are dropped, and its clock is still the host's clock.
@MainActor
final class PluginContext {
    weak var host: PluginHost?
    /// The host's clock, kept apart from the host so it outlives it.
    let clock: any ShellClock
    let plugin: String
    let path: String
    var models: [ModelDescriptor] = []
    var isRegistering = true
    /// The first malformed registration, which fails the whole load.
    var registrationProblem: String?
    /// Set by a stub told to fail; reported once through `service_failure`.
    var serviceFailure: String?
    private var table: UnsafeMutablePointer<storeplugin_host>?

    init(host: PluginHost, plugin: String, path: String) {
        self.host = host
        self.clock = host.clock
        self.plugin = plugin
        self.path = path
    }

    /// The services table handed to the plugin's entry point.
    func makeTable() -> UnsafeMutablePointer<storeplugin_host> {
        let table = UnsafeMutablePointer<storeplugin_host>.allocate(capacity: 1)
        table.initialize(
            to: storeplugin_host(
                struct_size: UInt32(MemoryLayout<storeplugin_host>.size),
                abi_version: STOREPLUGIN_ABI_VERSION,
                host_data: Unmanaged.passRetained(self).toOpaque(),  // for good: see the type
                register_model: PluginContext.registerModel,
                log: PluginContext.log,
                value_null: ValueFunctions.null,
                value_bool: ValueFunctions.bool,
                value_int: ValueFunctions.int,
                value_double: ValueFunctions.double,
                value_string: ValueFunctions.string,
                value_array: ValueFunctions.array,
                value_record: ValueFunctions.record,
                value_enum: ValueFunctions.enumCase,
                value_append: ValueFunctions.append,
                value_free: ValueFunctions.freeValue,
                clock_now: PluginContext.clockNow,
                clock_wake: PluginContext.clockWake,
                clock_cancel: PluginContext.clockCancel,
                service_failure: PluginContext.serviceFailure,
                virtual_clock: clock.controlsTheWorld || host?.drivesInProcessWorld == true
                    ? UInt32(STOREPLUGIN_CLOCK_VIRTUAL_WORLD)
                    : clock.isVirtual ? UInt32(STOREPLUGIN_CLOCK_VIRTUAL) : UInt32(STOREPLUGIN_CLOCK_REAL),
                service_answer: PluginContext.serviceAnswer
            ))
        self.table = table
        return table
    }

    private static func context(_ hostData: UnsafeMutableRawPointer?) -> PluginContext {
        Unmanaged<PluginContext>.fromOpaque(hostData!).takeUnretainedValue()
    }

    private func register(_ model: UnsafePointer<sp_model>?, error: UnsafeMutablePointer<sp_error>?) -> Int32 {
        func fail(_ message: String) -> Int32 {
            if registrationProblem == nil { registrationProblem = message }
            error?.write(message)
            return Int32(SP_ERR_REGISTRATION)
        }
        guard isRegistering else { return fail("register_model may only be called from the entry point") }
        guard let model else { return fail("register_model was given NULL") }
        do {
            let descriptor = try Registration.describe(model, plugin: plugin)
            if models.contains(where: { $0.name == descriptor.name }) {
                return fail("two models named '\(descriptor.name)' in one plugin")
            }
            models.append(descriptor)
            return Int32(SP_OK)
        } catch {
            return fail(error.message)
        }
    }

    private static let registerModel:
        @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<sp_model>?, UnsafeMutablePointer<sp_error>?) -> Int32 =
            { hostData, model, error in
                let args = Unchecked((hostData, model, error))
                return MainActor.assumeIsolated { context(args.value.0).register(args.value.1, error: args.value.2) }
            }

    private static let log: @convention(c) (UnsafeMutableRawPointer?, Int32, UnsafePointer<CChar>?) -> Void = {
        hostData, level, message in
        let text = message.map { String(cString: $0) } ?? ""
        let hostData = Unchecked(hostData)
        MainActor.assumeIsolated {
            let context = context(hostData.value)
            context.host?.log?(LogLevel(rawValue: level) ?? .info, "\(context.plugin): \(text)")
        }
    }

    private static let clockNow: @convention(c) (UnsafeMutableRawPointer?) -> Int64 = { hostData in
        let hostData = Unchecked(hostData)
        return MainActor.assumeIsolated { context(hostData.value).clock.now }
    }

    private static let clockWake:
        @convention(c) (
            UnsafeMutableRawPointer?, Int64, (@convention(c) (UnsafeMutableRawPointer?) -> Void)?,
            UnsafeMutableRawPointer?
        ) -> UInt64 = { hostData, deadline, fire, userData in
            guard let fire else { return 0 }
            let callback = TimerCallback(fire: fire, userData: userData)
            let hostData = Unchecked(hostData)
            return MainActor.assumeIsolated {
                context(hostData.value).clock.wake(at: deadline) { callback.fire(callback.userData) }
            }
        }

    private static let serviceAnswer:
        @convention(c) (
            UnsafeMutableRawPointer?, UnsafePointer<CChar>?, (@convention(c) (UnsafeMutableRawPointer?) -> Void)?,
            UnsafeMutableRawPointer?
        ) -> UInt64 = { hostData, service, deliver, userData in
            guard let deliver else { return 0 }
            let callback = TimerCallback(fire: deliver, userData: userData)
            let name = service.map { String(cString: $0) } ?? ""
            let hostData = Unchecked(hostData)
            return MainActor.assumeIsolated {
                context(hostData.value).clock.answer(from: name) { callback.fire(callback.userData) }
            }
        }

    private static let serviceFailure:
        @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<sp_error>?) -> Int32 = { hostData, error in
            let args = Unchecked((hostData, error))
            return MainActor.assumeIsolated {
                let context = context(args.value.0)
                guard let message = context.serviceFailure else { return Int32(SP_OK) }
                context.serviceFailure = nil
                args.value.1?.write(message)
                return Int32(SP_ERR_SERVICE)
            }
        }

    private static let clockCancel: @convention(c) (UnsafeMutableRawPointer?, UInt64) -> Void = { hostData, timer in
        let hostData = Unchecked(hostData)
        MainActor.assumeIsolated { context(hostData.value).clock.cancel(timer) }
    }
}

/// A plugin's timer callback, carried to the main thread.
private struct TimerCallback: @unchecked Sendable {
    let fire: @convention(c) (UnsafeMutableRawPointer?) -> Void
    let userData: UnsafeMutableRawPointer?
}
