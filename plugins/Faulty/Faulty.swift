// Faulty: a model with the bugs models under development have, on purpose, so storesh's
// tests can show it survives them: a Swift trap in the update, a force unwrap of nil, a
// segfault, abort(), an action that never returns, a trap inside an effect (off the main
// thread), a state that traps when it is read, and a helper process left running.
// `increment` and `add` work, so there is history to rebuild after a crash.
import Foundation
import ObservableStore
import StorePlugin

struct Faulty: ModelProtocol {
    var count = 0
    /// Reading the state traps while this is true.
    var poisoned = false

    @PluginActions
    enum Action: Sendable {
        /// Adds one.
        case increment
        /// Adds an amount.
        /// - Parameter amount: the amount
        case add(Int)
        /// Traps: arithmetic overflow.
        case overflow
        /// Traps: force-unwraps nil.
        case unwrapNil
        /// Writes through a bad pointer (SIGSEGV).
        case segfault
        /// Calls abort() (SIGABRT).
        case abort
        /// Never returns (says so on standard error first).
        case spin
        /// Starts an effect that traps after a delay.
        /// - Parameter delay: milliseconds
        case crashLater(Int)
        /// Makes reading the state trap.
        case poison
        /// Starts a helper process (`sleep`) that outlives storesh, holding what it
        /// inherited, as a daemon a model under development might start.
        /// - Parameter seconds: how long the helper lives
        case linger(Int)
    }

    struct Environment: Sendable {
        let clock: HostClock
    }

    static func update(state: Faulty, action: Action, environment: Environment) -> Update<Faulty> {
        var next = state
        switch action {
        case .increment: next.count += 1
        case .add(let amount): next.count += amount
        case .overflow: next.count = Int.max - Faulty.one() + 2
        case .unwrapNil:
            let missing: Int? = Faulty.nothing()
            next.count = missing!
        case .segfault:
            UnsafeMutablePointer<Int>(bitPattern: 8)!.pointee = next.count
        case .abort:
            Foundation.abort()
        case .spin:
            // Said first, so a test (or a person) knows the loop is running before Ctrl-C.
            FileHandle.standardError.write(Data("faulty: spinning until stopped\n".utf8))
            while next.count >= 0 { usleep(1000) }
        case .crashLater(let milliseconds):
            let bomb = Fx<Action>.task {
                try? await environment.clock.sleep(for: .milliseconds(milliseconds))
                let missing: Int? = Faulty.nothing()
                return .add(missing!)
            }
            return Update(state: next, fx: bomb)
        case .poison: next.poisoned = true
        case .linger(let seconds): Faulty.startHelper(seconds: seconds)
        }
        return Update(state: next)
    }

    /// `sleep seconds`, inheriting every descriptor storesh has open, never waited for.
    static func startHelper(seconds: Int) {
        var helper: pid_t = 0
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup("sleep"), strdup(String(seconds)), nil]
        defer { argv.forEach { free($0) } }
        _ = posix_spawn(&helper, "/bin/sleep", nil, nil, argv, environ)
    }

    // Opaque to the optimizer, so the traps happen at run time.
    @inline(never) static func one() -> Int { 1 }
    @inline(never) static func nothing() -> Int? { nil }
}

extension Faulty: Encodable {
    enum CodingKeys: CodingKey { case count, poisoned }

    func encode(to encoder: any Encoder) throws {
        precondition(!poisoned, "the state of a poisoned model cannot be read")
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(count, forKey: .count)
    }
}

extension Faulty: Decodable {
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        count = try container.decode(Int.self, forKey: .count)
    }
}

extension Faulty.Action: Codable {}

let faultyModel = PluginModel.observable(
    "faulty", doc: "A model with bugs on purpose: storesh's crash tests use it.", initial: { Faulty() },
    environment: { environment in Faulty.Environment(clock: environment.clock) }
)

@_cdecl("storeplugin_info_v1")
public func pluginInfo() -> UnsafeRawPointer { StorePlugin.info(name: "faulty", version: "1.0.0") }

@_cdecl("storeplugin_register_v1")
public func pluginRegister(_ host: UnsafeRawPointer, _ error: UnsafeMutableRawPointer) -> Int32 {
    StorePlugin.register(host: host, error: error, models: [faultyModel])
}
