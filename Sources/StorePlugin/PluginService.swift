import CStorePlugin
public import Foundation
import StoreRuntime

/// Declares a global function as a service the model calls and the shell may replace
/// (`:stub NAME …`), deriving everything else from the function's Swift types:
///
/// ```swift
/// /// The price of a product, in cents.
/// @PluginService
/// func price(sku: String) -> Int { catalog[sku] ?? 0 }
/// ```
///
/// makes `priceService`: list `priceService.declaration` in the model's `services`, and
/// give its environment `environment.caller(priceService)`, an
/// `@Sendable (String) async throws -> Int` that calls the implementation the host
/// provides now (the plugin's own or a stub) on the main thread, as the ABI requires, and
/// throws ``ServiceError`` when a stub was told to fail. A service takes and returns
/// `Int`, `Int64`, `Double`, `Bool` and `String`; a returned string stays valid until the
/// service's next call, as storeplugin.h requires. The C signature ("s>i") and the
/// `@convention(c)` thunk come from the same types, so they cannot disagree; a type a C
/// signature cannot carry is a compile error naming it.
@attached(peer, names: suffixed(Service))
public macro PluginService() = #externalMacro(module: "StorePluginMacros", type: "PluginServiceMacro")

/// A service declared with `@PluginService`: its declaration for the model's `services`,
/// and how to make the typed function the model's environment calls.
public struct PluginService<Caller>: @unchecked Sendable {
    /// The declaration the host sees: name, doc, C signature, the plugin's implementation.
    public let declaration: ServiceDeclaration
    let makeCaller: (ServiceCall) -> Caller

    /// Made by `@PluginService`.
    public init(_ declaration: ServiceDeclaration, caller: @escaping (ServiceCall) -> Caller) {
        self.declaration = declaration
        self.makeCaller = caller
    }
}

/// One service as the host provides it at the moment of each call.
public struct ServiceCall: @unchecked Sendable {
    let context: StoreContext
    let name: String

    /// Calls `body` with the service's current implementation, on the main actor, and
    /// throws ``ServiceError`` when the host's replacement was told to fail.
    public func callAsFunction<Function, Result: Sendable>(_ body: @escaping @Sendable (Function) -> Result)
        async throws -> Result
    {
        let context = self.context
        let name = self.name
        let result = try await MainActor.run {
            let service = Service<Function>(context: context, name: name)
            let result = body(service.function)
            if let failure = service.failure() { throw ServiceError(service: name, message: failure) }
            return result
        }
        try await Self.answer(of: name, services: context.services)
        return result
    }

    /// Waits until the host delivers the answer of the call to `service` just made
    /// (storeplugin.h's `service_answer`): at once unless the user or `storesh explore
    /// --schedules` makes it late. Throws `CancellationError` when the task is cancelled
    /// first (the answer is then never delivered). A host without `service_answer`
    /// answers in the call.
    static func answer(of service: String, services: HostServices) async throws {
        guard services.host.covers(\.service_answer) else { return }
        let pending = HostTimers.Pending(services, parksTask: EffectScheduling.taskScope != nil)
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                pending.start(answerOf: service) {
                    continuation.resume()
                } onCancel: {
                    continuation.resume(throwing: CancellationError())
                }
            }
        } onCancel: {
            pending.cancel()
        }
    }
}

/// A service call failed: the shell's stub was told to fail (`:stub NAME fail "…"`).
///
/// A `LocalizedError`, so a model that shows `error.localizedDescription` shows the
/// stub's message, not "(StorePlugin.ServiceError error 1.)".
public struct ServiceError: LocalizedError, CustomStringConvertible, Equatable {
    /// The service's name.
    public let service: String
    /// The failure's message, as the stub was given it.
    public let message: String
    /// The message alone, as a model would show it.
    public var description: String { message }
    /// The message alone: what `localizedDescription` gives.
    public var errorDescription: String? { message }
}

/// Conversions the thunks `@PluginService` makes use of.
public enum ServiceValues {
    /// A C string argument as a Swift `String` (a null pointer is "").
    public static func string(_ pointer: UnsafePointer<CChar>?) -> String {
        pointer.map { String(cString: $0) } ?? ""
    }

    /// `text` as the C string a service returns. storeplugin.h's rule: a returned string
    /// stays valid until the next call of the same service. So each service keeps its
    /// last answer here, and frees it when it answers again.
    public static func returned(_ text: String, by service: StaticString) -> UnsafePointer<CChar>? {
        let copy = strdup(text)
        let key = "\(service)"
        let previous = lastAnswers.withLock { answers in
            defer { answers[key] = copy }
            return answers[key]
        }
        free(previous)
        return UnsafePointer(copy)
    }

    /// The last string each service returned, by service name.
    private static let lastAnswers = LockedAnswers()

    private final class LockedAnswers: @unchecked Sendable {
        private let lock = NSLock()
        private var answers: [String: UnsafeMutablePointer<CChar>] = [:]

        func withLock<T>(_ body: (inout [String: UnsafeMutablePointer<CChar>]) -> T) -> T {
            lock.lock()
            defer { lock.unlock() }
            return body(&answers)
        }
    }
}

extension PluginEnvironment {
    /// The typed function that calls `service` (declared with `@PluginService` and listed
    /// in the model's `services`) as the host provides it at each call.
    public func caller<Caller>(_ service: PluginService<Caller>) -> Caller {
        guard context.service(service.declaration.name) != nil else {
            fatalError(
                "StorePlugin: the model calls service '\(service.declaration.name)' but did not list it in its services"
            )
        }
        return service.makeCaller(ServiceCall(context: context, name: service.declaration.name))
    }
}
