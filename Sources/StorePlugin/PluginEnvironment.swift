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
        guard let pointer = context.service(name) else {
            fatalError("StorePlugin: the model uses service '\(name)' but did not declare it")
        }
        return Service(function: unsafeBitCast(pointer, to: Function.self))
    }

    /// Writes to the host's log.
    public func log(_ message: String) {
        context.services.log(1, message)
    }
}

/// A service implementation: a C function pointer, which is only a code address and so
/// safe to hand to an effect running on another thread.
public struct Service<Function>: @unchecked Sendable {
    public let function: Function
}
