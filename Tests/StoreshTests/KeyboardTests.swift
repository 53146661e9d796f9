import CEditLine
import CPseudoTerminal
import Foundation
import Glibc
import Testing

/// The prompt's key reader against a real pseudo-terminal, at the moment a flake in
/// `ctrlCDropsTheLineAndCtrlDLeaves` showed: poll says a key is there, Ctrl-C makes the
/// terminal drop its typed-ahead input, and only then the reader reads.
@Suite("Reading keys from a terminal")
struct KeyboardTests {
    /// A terminal's two ends, the slave in the mode libedit sets while it edits: no line
    /// buffering, no echo, and Ctrl-C a signal that flushes the input.
    final class Terminal {
        let master: Int32
        let slave: Int32

        init() throws {
            var name = [CChar](repeating: 0, count: 256)
            master = cpty_open(&name, name.count)
            try #require(master >= 0, "no pseudo-terminal: errno \(errno)")
            let path = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            slave = open(path, O_RDWR | O_NOCTTY | O_CLOEXEC)
            try #require(slave >= 0, "cannot open \(path): errno \(errno)")
            var mode = termios()
            tcgetattr(slave, &mode)
            mode.c_lflag &= ~tcflag_t(ICANON | ECHO)
            mode.c_lflag |= tcflag_t(ISIG)
            tcsetattr(slave, TCSANOW, &mode)
        }

        deinit {
            close(slave)
            close(master)
        }

        func type(_ keys: String) {
            _ = keys.utf8CString.withUnsafeBufferPointer { write(master, $0.baseAddress, $0.count - 1) }
        }

        /// Bytes waiting to be read (the terminal takes typed keys in asynchronously).
        func waiting() -> Int32 {
            var count: Int32 = 0
            _ = ioctl(slave, UInt(FIONREAD), &count)
            return count
        }

        func waitUntil(_ condition: () -> Bool) -> Bool {
            for _ in 0..<200 where !condition() { usleep(5_000) }
            return condition()
        }
    }

    @Test func aKeyDroppedByCtrlCAfterPollSaidReadyIsNotWaitedFor() throws {
        let terminal = try Terminal()
        let keyboard = cel_open_keyboard(terminal.slave)
        defer { if keyboard != terminal.slave { close(keyboard) } }
        #expect(keyboard != terminal.slave, "a terminal is opened anew")

        terminal.type("ncre")
        var input = pollfd(fd: keyboard, events: Int16(POLLIN), revents: 0)
        #expect(poll(&input, 1, 1_000) == 1, "the typed keys are there")
        terminal.type("\u{3}")
        #expect(terminal.waitUntil { terminal.waiting() == 0 }, "Ctrl-C dropped the typed-ahead keys")

        // A blocking read here waits for the next key: the prompt then shows "^C" only
        // after the user types again. The editor's read finds nothing and goes on.
        let reader = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var got: Int32 = 99
        Thread {
            var byte: CChar = 0
            got = cel_read_byte(keyboard, &byte)
            reader.signal()
        }.start()
        let answered = reader.wait(timeout: .now() + 2) == .success
        if !answered {  // let the blocked reader go, so the test ends
            terminal.type("x")
            reader.wait()
        }
        #expect(answered, "the read did not wait for another key")
        #expect(got == CEL_NO_KEY)

        terminal.type("d")
        var byte: CChar = 0
        #expect(poll(&input, 1, 1_000) == 1)
        #expect(cel_read_byte(keyboard, &byte) == 1)
        #expect(UInt8(bitPattern: byte) == UInt8(ascii: "d"), "the next key is read")
    }

    @Test func theTerminalsOwnDescriptorIsLeftBlocking() throws {
        let terminal = try Terminal()
        let keyboard = cel_open_keyboard(terminal.slave)
        defer { if keyboard != terminal.slave { close(keyboard) } }
        #expect(
            fcntl(terminal.slave, F_GETFL) & O_NONBLOCK == 0,
            "stdin's flags are shared with the shell that started storesh")
        #expect(fcntl(keyboard, F_GETFL) & O_NONBLOCK != 0)
    }

    /// The terminal goes away (its window closed, the ssh link dropped): the read must say
    /// "end of input", not "no key now", or the prompt would poll a dead terminal for ever.
    @Test func aTerminalThatHangsUpEndsTheInput() throws {
        var name = [CChar](repeating: 0, count: 256)
        let master = cpty_open(&name, name.count)
        try #require(master >= 0)
        let path = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let slave = open(path, O_RDWR | O_NOCTTY | O_CLOEXEC)
        try #require(slave >= 0)
        defer { close(slave) }
        let keyboard = cel_open_keyboard(slave)
        defer { if keyboard != slave { close(keyboard) } }
        close(master)
        var input = pollfd(fd: keyboard, events: Int16(POLLIN), revents: 0)
        #expect(poll(&input, 1, 1_000) == 1, "a hang-up wakes the poll")
        // Bytes the terminal held when it went (a CI run once read one) come first; then
        // the read must say end of input, never "no key now".
        var byte: CChar = 0
        var result = cel_read_byte(keyboard, &byte)
        var held = 0
        while result == 1, held < 4096 {
            held += 1
            result = cel_read_byte(keyboard, &byte)
        }
        #expect(result == 0, "after \(held) held bytes")
    }

    @Test func aPipeIsReadAsItIs() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer {
            close(ends[0])
            close(ends[1])
        }
        #expect(
            cel_open_keyboard(ends[0]) == ends[0],
            "nothing flushes a pipe, and a file opened anew would start at its beginning")
    }
}
