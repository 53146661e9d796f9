import StoreHost

/// The clock a worker's plugin sees: the shell's. Virtual time is the time the shell
/// last sent, and timers are the shell's to fire; real time is read here.
@MainActor
final class ShellTime: ShellClock {
    var isVirtual = false
    /// True while the worker's deterministic world is on (docs/decisions/0002).
    var controlsTheWorld = false
    var shellNow: Int64 = 0
    var onWake: ((UInt64, Int64) -> Void)?
    var onCancel: ((UInt64) -> Void)?
    /// A service's answer, timed by the shell's clock (`answer`, protocol 12).
    var onAnswer: ((UInt64, String) -> Void)?
    private var lastTimer: UInt64 = 0
    private var callbacks: [UInt64: @MainActor () -> Void] = [:]

    var now: Int64 { shellNow }

    func wake(at deadline: Int64, _ fire: @escaping @MainActor () -> Void) -> UInt64 {
        lastTimer += 1
        callbacks[lastTimer] = fire
        onWake?(lastTimer, deadline)
        return lastTimer
    }

    func answer(from service: String, _ deliver: @escaping @MainActor () -> Void) -> UInt64 {
        // On a real clock the worker times it, at once; on a virtual one the shell does.
        guard isVirtual, let onAnswer else { return wake(at: shellNow, deliver) }
        lastTimer += 1
        callbacks[lastTimer] = deliver
        onAnswer(lastTimer, service)
        return lastTimer
    }

    func cancel(_ timer: UInt64) {
        guard callbacks.removeValue(forKey: timer) != nil else { return }
        onCancel?(timer)
    }

    func fire(_ timer: UInt64) {
        callbacks.removeValue(forKey: timer)?()
    }
}
