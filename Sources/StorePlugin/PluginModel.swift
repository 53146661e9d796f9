import CStorePlugin

/// A model ready to be registered with the host: its schema, and how to make stores.
/// Build one with `PluginModel.observable(…)` or `PluginModel.arboreal(…)`.
public struct PluginModel: @unchecked Sendable {
    public let name: String
    public let doc: String
    let actions: [(name: String, doc: String, params: [Param])]
    let services: [ServiceDeclaration]
    let makeStore: @MainActor (StoreContext) throws(PluginFailure) -> any PluginStore
}

/// An error to report to the host: an ABI code and a message.
struct PluginFailure: Error {
    let code: Int32
    let message: String

    static func badArguments(_ message: String) -> PluginFailure { .init(code: Int32(SP_ERR_BAD_ARGUMENTS), message: message) }
    static func unknownAction(_ name: String) -> PluginFailure { .init(code: Int32(SP_ERR_UNKNOWN_ACTION), message: "no action named '\(name)'") }
}

/// What dispatching one action did.
struct DispatchOutcome {
    let stateChanged: Bool
    let effectsStarted: Int
}

/// One store, as the C trampolines see it.
@MainActor
protocol PluginStore: AnyObject {
    func dispatch(action index: Int, arguments: [Value]) throws(PluginFailure) -> DispatchOutcome
    func snapshot() throws -> Value
    func dispose()
}

/// The host's per-store callbacks and the services it passed (`sp_store_context`).
@MainActor
final class StoreContext {
    private let context: UnsafePointer<sp_store_context>
    let serviceNames: [String]
    /// The host table the store's model was registered with.
    let services: HostServices

    init(_ context: UnsafePointer<sp_store_context>, serviceNames: [String], services: HostServices) {
        self.context = context
        self.serviceNames = serviceNames
        self.services = services
    }

    /// The implementation the host passed for `name`, as a raw function pointer.
    func service(_ name: String) -> UnsafeRawPointer? {
        guard let index = serviceNames.firstIndex(of: name), index < Int(context.pointee.service_count),
              let list = context.pointee.services, let entry = list[index] else { return nil }
        return unsafeBitCast(entry, to: UnsafeRawPointer.self)
    }

    func report(_ kind: sp_effect_kind, effect: UInt64, label: String? = nil, action: String? = nil, message: String? = nil) {
        guard let callback = context.pointee.effect_event else { return }
        withOptionalCString(label) { label in
            withOptionalCString(action) { action in
                withOptionalCString(message) { message in
                    var event = sp_effect_event(struct_size: UInt32(MemoryLayout<sp_effect_event>.size), kind: kind.rawValue,
                                                effect_id: effect, label: label, action: action, message: message)
                    callback(context.pointee.user_data, &event)
                }
            }
        }
    }

    func applied(_ action: String) {
        guard let callback = context.pointee.action_applied else { return }
        action.withCString { callback(context.pointee.user_data, $0) }
    }
}

private func withOptionalCString<T>(_ text: String?, _ body: (UnsafePointer<CChar>?) -> T) -> T {
    guard let text else { return body(nil) }
    return text.withCString(body)
}
