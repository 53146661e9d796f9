import Foundation

/// A plain HTTP/1.1 client over a socket, so a test chooses every header (Host, Origin)
/// as an attacker's page or program would. Blocking: call it through `onThread`.
enum RawHTTP {
    /// Runs blocking `work` on a thread of its own: on Swift's pool (two threads here) a
    /// blocked read would starve the server it waits for.
    static func onThread<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: work()) }.start()
        }
    }

    struct Response: Sendable {
        let status: Int
        let head: String
        let body: String
    }

    enum Failure: Error, Equatable {
        case connect(Int32)
        case io(String)
    }

    /// Connects to `address`:`port` (IPv4 text), or fails with the errno.
    static func connect(_ address: String = "127.0.0.1", port: Int) throws(Failure) -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw .connect(errno) }
        var peer = sockaddr_in()
        peer.sin_family = sa_family_t(AF_INET)
        peer.sin_port = UInt16(port).bigEndian
        inet_pton(AF_INET, address, &peer.sin_addr)
        let result = withUnsafePointer(to: &peer) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Foundation.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            let error = errno
            close(fd)
            throw .connect(error)
        }
        var timeout = timeval(tv_sec: 20, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        return fd
    }

    /// One request, with `Connection: close`, read to the end.
    static func request(
        port: Int, _ method: String, _ target: String, headers: [String: String] = [:], body: String = ""
    ) throws(Failure) -> Response {
        let fd = try connect(port: port)
        defer { close(fd) }
        var all = ["Host": "127.0.0.1:\(port)", "Connection": "close"].merging(headers) { _, new in new }
        if !body.isEmpty || method == "POST" { all["Content-Length"] = String(body.utf8.count) }
        var text = "\(method) \(target) HTTP/1.1\r\n"
        for (name, value) in all.sorted(by: { $0.key < $1.key }) { text += "\(name): \(value)\r\n" }
        text += "\r\n" + body
        try send(fd, text)
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = recv(fd, &buffer, buffer.count, 0)
            if count <= 0 { break }
            received += buffer[0..<count]
        }
        return parse(String(decoding: received, as: UTF8.self))
    }

    static func send(_ fd: Int32, _ text: String) throws(Failure) {
        let bytes = Array(text.utf8)
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes {
                Foundation.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard count > 0 else { throw .io("send failed: errno \(errno)") }
            sent += count
        }
    }

    /// Reads from an open event stream until `text` has arrived (or 20 seconds pass: in
    /// all, not per read, since a stream that sends something else now and then never
    /// lets a single read time out, and a test once waited on one for ever).
    static func read(_ fd: Int32, until text: String) -> String {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let deadline = Date().addingTimeInterval(20)
        while !String(decoding: received, as: UTF8.self).contains(text), Date() < deadline {
            let count = recv(fd, &buffer, buffer.count, 0)
            if count <= 0 { break }
            received += buffer[0..<count]
        }
        return String(decoding: received, as: UTF8.self)
    }

    static func parse(_ text: String) -> Response {
        guard let split = text.range(of: "\r\n\r\n") else { return Response(status: 0, head: text, body: "") }
        let head = String(text[..<split.lowerBound])
        let status = head.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        var body = String(text[split.upperBound...])
        if head.lowercased().contains("transfer-encoding: chunked") { body = dechunk(body) }
        return Response(status: status, head: head, body: body)
    }

    /// A chunked body's chunks, joined (good enough for text bodies).
    static func dechunk(_ text: String) -> String {
        var rest = Substring(text)
        var out = ""
        while let line = rest.range(of: "\r\n"), let size = Int(rest[..<line.lowerBound], radix: 16), size > 0 {
            let start = line.upperBound
            let bytes = Array(rest[start...].utf8)
            out += String(decoding: bytes.prefix(size), as: UTF8.self)
            rest = Substring(String(decoding: bytes.dropFirst(size + 2), as: UTF8.self))
        }
        return out
    }
}
