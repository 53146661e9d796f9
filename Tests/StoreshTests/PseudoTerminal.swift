import CPseudoTerminal
import Foundation
import Glibc

/// Runs storesh on a pseudo-terminal, as a person would: the program sees a real tty
/// (so libedit, colours and the prompt are on) and the test types keys and reads the
/// screen's byte stream.
final class PseudoTerminal {
    let master: Int32
    let pid: pid_t
    /// Everything the program has written so far, without terminal escape sequences
    /// (colours, cursor moves), so tests can look for plain text.
    private(set) var transcript = ""

    struct Failed: Error, CustomStringConvertible {
        let description: String
    }

    init(_ arguments: [String], environment extra: [String: String]) throws {
        var name = [CChar](repeating: 0, count: 256)
        master = cpty_open(&name, name.count)
        guard master >= 0 else { throw Failed(description: "no pseudo-terminal: errno \(errno)") }
        let slave = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // POSIX_SPAWN_SETSID (glibc): a new session, so opening the tty makes it the
        // controlling terminal and Ctrl-C reaches the program as SIGINT.
        posix_spawnattr_setflags(&attributes, Int16(0x80))
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, slave, O_RDWR, 0)
        posix_spawn_file_actions_adddup2(&actions, 0, 1)
        posix_spawn_file_actions_adddup2(&actions, 0, 2)
        var environment = ProcessInfo.processInfo.environment
        environment["TERM"] = "xterm"
        environment.removeValue(forKey: "NO_COLOR")
        environment.merge(extra) { $1 }
        let argv = ([storeshBinary] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var child: pid_t = 0
        let status = posix_spawn(&child, storeshBinary, &actions, &attributes, argv, envp)
        guard status == 0 else { throw Failed(description: "posix_spawn failed: \(status)") }
        pid = child
    }

    deinit {
        kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        close(master)
    }

    /// Types `keys`.
    func type(_ keys: String) {
        let bytes = Array(keys.utf8)
        bytes.withUnsafeBytes { _ = write(master, $0.baseAddress, $0.count) }
    }

    /// Reads until the transcript (after `since`) contains `text`, or `timeout` passes.
    @discardableResult
    func expect(_ text: String, since mark: Int = 0, timeout: Double = 10) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if String(transcript.utf8.dropFirst(mark)).map({ $0.contains(text) }) == true { return true }
            pump(milliseconds: 50)
        }
        return String(transcript.utf8.dropFirst(mark)).map { $0.contains(text) } == true
    }

    /// Reads until `text` appears after the last `anchor` in the transcript.
    @discardableResult
    func expect(_ text: String, after anchor: String, timeout: Double = 10) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        func found() -> Bool {
            guard let range = transcript.range(of: anchor, options: .backwards) else { return false }
            return transcript[range.upperBound...].contains(text)
        }
        while Date() < deadline {
            if found() { return true }
            pump(milliseconds: 50)
        }
        return found()
    }

    /// The transcript's length now, to search only what comes after.
    var mark: Int { transcript.utf8.count }

    /// Reads whatever arrives within `milliseconds`.
    func pump(milliseconds: Int32) {
        var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, milliseconds) > 0 else { return }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = read(master, &buffer, buffer.count)
        if count > 0 { transcript += Self.plain(String(decoding: buffer.prefix(count), as: UTF8.self)) }
    }

    /// Drops ANSI escape sequences (ESC [ … final letter).
    static func plain(_ text: String) -> String {
        var out = ""
        var escape = false
        var bracket = false
        for scalar in text.unicodeScalars {
            if escape {
                if !bracket, scalar == "[" {
                    bracket = true
                    continue
                }
                if !bracket || (scalar.value >= 0x40 && scalar.value <= 0x7E) {
                    escape = false
                    bracket = false
                }
                continue
            }
            if scalar == "\u{1B}" {
                escape = true
                continue
            }
            out.unicodeScalars.append(scalar)
        }
        return out
    }

    /// Waits for the program to exit; returns its status, or nil after `timeout`.
    func exitStatus(timeout: Double = 10) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        var status: Int32 = 0
        while Date() < deadline {
            pump(milliseconds: 20)
            if waitpid(pid, &status, WNOHANG) == pid { return (status >> 8) & 0xff }
        }
        return nil
    }
}
