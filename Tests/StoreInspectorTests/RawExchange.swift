import Foundation

/// One request sent as raw bytes, as a careless or hostile client would: from a thread of
/// its own, so that the answer is read while the bytes are still going out (a server that
/// answers a 4 MB header after 8 kB has not read the rest).
struct RawExchange: Sendable {
    /// The answer's status (0: none came).
    let status: Int
    let head: String
    let body: String
    /// Seconds from the connection to the answer's end (or to giving up).
    let seconds: Double
    /// Bytes of the request the kernel took before the answer came or the connection ended.
    let sent: Int

    /// Sends `request` (then `trickle`, a byte every `pause` seconds) on a new
    /// connection to `port` and reads the answer to its end, for at most `patience`
    /// seconds.
    static func run(
        port: Int, _ request: [UInt8], trickle: [UInt8] = [], pause: Double = 0.1, patience: Int = 20
    ) -> RawExchange {
        let started = Date()
        guard let fd = try? RawHTTP.connect(port: port) else {
            return RawExchange(status: 0, head: "cannot connect", body: "", seconds: 0, sent: 0)
        }
        var timeout = timeval(tv_sec: patience, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let counter = SentCount()
        let done = DispatchSemaphore(value: 0)
        Thread {
            defer { done.signal() }
            var offset = 0
            while offset < request.count {
                let count = request[offset...].withUnsafeBytes {
                    send(fd, $0.baseAddress, min($0.count, 65_536), Int32(MSG_NOSIGNAL))
                }
                guard count > 0 else { return }
                offset += count
                counter.add(count)
            }
            for byte in trickle {
                usleep(UInt32(pause * 1_000_000))
                guard withUnsafeBytes(of: byte, { send(fd, $0.baseAddress, 1, Int32(MSG_NOSIGNAL)) }) == 1 else {
                    return
                }
                counter.add(1)
            }
        }.start()
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while Date().timeIntervalSince(started) < Double(patience) {
            let count = recv(fd, &buffer, buffer.count, 0)
            if count <= 0 { break }
            received += buffer[0..<count]
        }
        let seconds = Date().timeIntervalSince(started)
        let sent = counter.value
        shutdown(fd, Int32(SHUT_RDWR))  // frees a sender still blocked
        done.wait()
        close(fd)
        let answer = RawHTTP.parse(String(decoding: received, as: UTF8.self))
        return RawExchange(status: answer.status, head: answer.head, body: answer.body, seconds: seconds, sent: sent)
    }
}

/// A count written by the sending thread and read by the test's.
private final class SentCount: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    func add(_ more: Int) { lock.withLock { count += more } }
    var value: Int { lock.withLock { count } }
}
