import CStorePlugin

/// What the host gives a model's environment: its clock (as a Swift `Clock` and as a
/// Combine-style scheduler), the services the model declared, and its log.
@MainActor
public struct PluginEnvironment {
    let context: StoreContext

    @usableFromInline
    init(context: StoreContext) {
        self.context = context
    }

    /// The host clock for async effects: `try await environment.clock.sleep(for: .milliseconds(500))`.
    /// Real time at the prompt, virtual under `storesh test`.
    public var clock: HostClock { HostClock(services: context.services) }

    /// The host clock for publisher effects: `.delay(for: .milliseconds(500), scheduler: environment.scheduler)`.
    public var scheduler: HostScheduler { HostScheduler(services: context.services) }

    /// The implementation the host passed for the declared service `name` — the plugin's
    /// own, or a stub from the shell — as the `@convention(c)` type `Function`. Call it on
    /// the main thread (the ABI's rule for every call between host and plugin).
    public func service<Function>(_ name: String, as type: Function.Type) -> Service<Function> {
        guard context.service(name) != nil else {
            fatalError("StorePlugin: the model uses service '\(name)' but did not declare it")
        }
        return Service(context: context, name: name)
    }

    /// Writes to the host's log.
    public func log(_ message: String) {
        context.services.log(1, message)
    }
}

/// A declared service. The host may replace its implementation while the store lives
/// (storesh's `:stub`), so `function` is looked up at each call. Use it on the main actor.
public struct Service<Function>: @unchecked Sendable {
    let context: StoreContext
    let name: String

    /// The implementation to call now: the plugin's own, or the host's replacement.
    @MainActor
    public var function: Function {
        unsafeBitCast(context.service(name)!, to: Function.self)
    }

    /// Right after a call: why the host's replacement failed, or nil when it did not.
    @MainActor
    public func failure() -> String? {
        let host = context.services.host
        guard host.covers(\.service_failure), let check = host.service_failure else {
            return nil
        }
        var error = sp_error()
        error.struct_size = UInt32(MemoryLayout<sp_error>.size)
        guard check(host.host_data, &error) != Int32(SP_OK) else { return nil }
        return withUnsafeBytes(of: &error.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }
}
