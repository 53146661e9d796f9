// Auth: a sign-in flow with an effect. `authenticate` waits half a second on the host
// clock, asks the `checkCredentials` service, then sends `succeed` or `fail`; `cancel`
// stops an attempt in flight. The service is a plain Swift function declared with
// @PluginService, so the shell can replace it (`:stub`) as it can for plugins in any language.
import ObservableStore
import StorePlugin

struct Auth: ModelProtocol, Codable {
    enum Phase: String, Codable {
        case signedOut, authenticating, signedIn, failed
    }

    var phase = Phase.signedOut
    var user: String?
    var error: String?
    var attempts = 0

    @PluginActions
    enum Action: Codable, Sendable {
        /// Checks the credentials after half a second.
        case authenticate(user: String, password: String)
        /// The check passed (sent by the effect).
        case succeed(user: String)
        /// The check failed (sent by the effect).
        case fail(reason: String)
        /// Cancels the check in flight.
        case cancel
        /// Signs out.
        case signOut
    }

    struct Environment: Sendable {
        let clock: HostClock
        /// True when the user may sign in; throws when the service itself fails.
        let checkCredentials: @Sendable (_ user: String, _ password: String) async throws -> Bool
    }

    static func update(state: Auth, action: Action, environment: Environment) -> Update<Auth> {
        var next = state
        switch action {
        case .authenticate(let user, let password):
            next.phase = .authenticating
            next.user = user
            next.error = nil
            next.attempts += 1
            let attempt = Fx<Action>.task {
                do {
                    try await environment.clock.sleep(for: .milliseconds(500))
                } catch {
                    return .fail(reason: "cancelled")
                }
                do {
                    let ok = try await environment.checkCredentials(user, password)
                    return ok ? .succeed(user: user) : .fail(reason: "wrong user or password")
                } catch {
                    return .fail(reason: "\(error)")
                }
            }
            return Update(state: next, fx: attempt).cancellable(id: "authenticate", cancelInFlight: true)
        case .succeed(let user):
            next.phase = .signedIn
            next.user = user
            return Update(state: next)
        case .fail(let reason):
            next.phase = .failed
            next.error = reason
            return Update(state: next)
        case .cancel:
            guard state.phase == .authenticating else { return Update(state: state) }
            next.phase = .signedOut
            next.user = nil
            return Update(state: next).cancelFx(id: "authenticate")
        case .signOut:
            return Update(state: Auth(attempts: state.attempts)).cancelFx(id: "authenticate")
        }
    }
}

/// True if the user may sign in with the password: the plugin's own check accepts any
/// user with the password "open sesame".
@PluginService
func checkCredentials(user: String, password: String) -> Bool {
    !user.isEmpty && password == "open sesame"
}

let authModel = PluginModel.observable(
    "auth",
    doc: "Sign-in with an asynchronous credential check (password: open sesame).",
    initial: { Auth() },
    services: [checkCredentialsService.declaration],
    environment: { Auth.Environment(clock: $0.clock, checkCredentials: $0.caller(checkCredentialsService)) }
)

@_cdecl("storeplugin_info_v1")
public func pluginInfo() -> UnsafeRawPointer { StorePlugin.info(name: "auth", version: "1.0.0") }

@_cdecl("storeplugin_register_v1")
public func pluginRegister(_ host: UnsafeRawPointer, _ error: UnsafeMutableRawPointer) -> Int32 {
    StorePlugin.register(host: host, error: error, models: [authModel])
}
