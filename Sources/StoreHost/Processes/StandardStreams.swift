import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Writing to this process's own standard output and error, the one way every part of
/// storesh does it.
///
/// storesh ignores SIGPIPE (`ignoreBrokenPipes`): its pipes to workers and test children
/// may lose their reader at any moment (a plugin that exits, the OOM killer), and with the
/// signal at its default a write to such a pipe ended storesh before the write's EPIPE
/// could be handled. Every pipe write then handles EPIPE where it is made; here, a reader
/// of standard output or error that went away (`storesh … | head`) ends storesh as it
/// ended a filter before — by SIGPIPE, status 141 — after the journal, which is written
/// record by record, already holds everything.
package enum StandardStreams {
    /// Makes a write to a pipe whose reader is gone fail with EPIPE instead of killing the
    /// process. Children get the default back (`Spawn`).
    package static func ignoreBrokenPipes() {
        signal(SIGPIPE, SIG_IGN)
    }

    /// Writes `text` to standard error.
    package static func error(_ text: String) {
        write(text, to: STDERR_FILENO)
    }

    /// Writes all of `text` to `descriptor` (standard output or error).
    package static func write(_ text: String, to descriptor: Int32) {
        var text = text
        text.withUTF8 { write(UnsafeRawBufferPointer($0), to: descriptor) }
    }

    /// Writes all of `bytes` to `descriptor` (standard output or error), after what C's
    /// stdio holds for standard output (a plugin in this process that printed without
    /// flushing: its output then comes before storesh's, as it happened).
    package static func write(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) {
        fflush(nil)  // every C stream: `stdout` itself is not concurrency-safe to name
        var offset = 0
        while offset < bytes.count {
            let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written >= 0 {
                offset += written
            } else if errno == EINTR {
                continue
            } else if errno == EAGAIN {
                waitUntilWritable(descriptor)
            } else if errno == EPIPE {
                endAsAFilterDoes()
            } else {
                reportOnce(descriptor, errno)
                return
            }
        }
    }

    /// The reader of our output is gone: end as the default action of SIGPIPE does.
    private static func endAsAFilterDoes() -> Never {
        signal(SIGPIPE, SIG_DFL)
        raise(SIGPIPE)
        _exit(141)
    }

    private static func waitUntilWritable(_ descriptor: Int32) {
        var ready = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
        _ = poll(&ready, 1, 100)
    }

    /// A failing stream (a full disk under a redirection, a device error) is said once, on
    /// standard error when standard output failed; what could not be written is lost.
    private static func reportOnce(_ descriptor: Int32, _ code: Int32) {
        let stream =
            descriptor == STDOUT_FILENO
            ? "standard output" : descriptor == STDERR_FILENO ? "standard error" : "descriptor \(descriptor)"
        let bit = 1 << min(Int(descriptor), 62)
        guard reported.bitwiseOr(bit, ordering: .relaxed).oldValue & bit == 0, descriptor != STDERR_FILENO else {
            return
        }
        error("storesh: cannot write \(stream): \(String(cString: strerror(code))); output is lost from here\n")
    }

    /// A bit per descriptor whose failure was said.
    private static let reported = Atomic<Int>(0)
}
