// storesh-inspector: the inspector's HTTP server, in a process of its own. storesh starts
// it for `--inspect` and `:inspect`; it listens on 127.0.0.1 and relays every request to
// storesh, which checks and answers it (InspectorRelay describes the messages). Its HTTP/1.1
// is its own (Connection, Incoming, RequestHead: every request read within HTTPLimits) on
// FlyingSocks' asynchronous sockets; it loads no networking library beyond the C library.
//
//   storesh-inspector --port PORT [--head-seconds SECONDS]
//     PORT: 0 for any free port. SECONDS: how long a request's head may take to arrive
//     (10; tests make it short).
//   fd 3: storesh's answers; fd 4: the requests to storesh. When storesh closes fd 3
//   (it stopped the inspector, or ended), this program ends.
import FlyingSocks
import Foundation
import InspectorHTTP
import InspectorRelay

/// The port and limits the command line asks for, or nil when it is not
/// `--port N [--head-seconds S]` with N from 0 to 65535 and S from 0.05 to 3600.
func requestedOptions(_ arguments: [String]) -> (port: UInt16, limits: HTTPLimits)? {
    var limits = HTTPLimits()
    var port: UInt16?
    var rest = arguments[...]
    while let name = rest.popFirst() {
        guard let value = rest.popFirst() else { return nil }
        switch name {
        case "--port":
            guard let number = Int(value), (0...65_535).contains(number) else { return nil }
            port = UInt16(number)
        case "--head-seconds":
            guard let seconds = Double(value), (0.05...3600).contains(seconds) else { return nil }
            limits.headSeconds = seconds
        default:
            return nil
        }
    }
    return port.map { ($0, limits) }
}

/// Turns Nagle's algorithm off on an accepted connection: a streamed answer's chunks, each
/// a write of its own, then leave at once instead of waiting up to 40 ms for the client's
/// delayed acknowledgement of the previous one.
func sendAtOnce(_ socket: Socket) -> Bool {
    var on: Int32 = 1
    return setsockopt(
        socket.file.rawValue, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size)) == 0
}

let answers: Int32 = 3
let requests: Int32 = 4
// storesh may end while an answer is written, a client while it is answered: a write then
// fails instead of killing us.
signal(SIGPIPE, SIG_IGN)
guard let (port, limits) = requestedOptions(Array(CommandLine.arguments.dropFirst())) else {
    FileHandle.standardError.write(
        Data(
            "usage: storesh-inspector --port PORT [--head-seconds SECONDS] (run by storesh for --inspect; fd 3 and 4 are its relay)\n"
                .utf8))
    exit(2)
}
let writer = RelayWriter(fd: requests)
let relay = Relay(writer: writer)
let pool = SocketPool<Poll>.make(maxEvents: 64)
let listener: AsyncSocket
let bound: UInt16
do {
    try await pool.prepare()
    let socket = try Socket(domain: AF_INET, type: .stream)
    try socket.setValue(true, for: .localAddressReuse)
    try socket.bind(to: .inet(ip4: "127.0.0.1", port: port))
    try socket.listen()
    guard case .ip4(_, let number) = try socket.sockname() else { throw SocketError.unsupportedAddress }
    bound = number
    listener = try AsyncSocket(socket: socket, pool: pool)
} catch {
    writer.send(.cannotListen(reason: "\(error)"))
    exit(1)
}

// storesh's answers, read on a thread of their own; when storesh closes its side, the
// server's work is over.
let reading = Thread {
    var reader = RelayReader(fd: answers)
    while true {
        do {
            guard let message = try reader.next() else { break }
            relay.deliver(message)
        } catch {
            FileHandle.standardError.write(Data("storesh-inspector: storesh's relay is broken: \(error)\n".utf8))
            break
        }
    }
    relay.endAll()
    exit(0)
}
reading.start()

writer.send(.listening(port: Int(bound)))
let connections = Connections(limit: limits.connections)
var warnedNagle = false
do {
    try await withThrowingDiscardingTaskGroup { group in
        group.addTask { try await pool.run() }
        while true {
            let client: AsyncSocket
            do {
                client = try await listener.accept()
            } catch {
                // Out of descriptors, most likely: connections will end and free some.
                try await Task.sleep(nanoseconds: 50_000_000)
                continue
            }
            if !sendAtOnce(client.socket), !warnedNagle {
                warnedNagle = true
                FileHandle.standardError.write(
                    Data("storesh-inspector: cannot set TCP_NODELAY; streamed answers may wait 40 ms\n".utf8))
            }
            let admitted = connections.admit { [relay, limits, connections] id in
                let waiting: @Sendable (Bool) -> Void = { connections.waiting(id, $0) }
                await Connection(socket: client, relay: relay, limits: limits, waiting: waiting).serve()
            }
            guard admitted else {
                let answer = "HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
                _ = try? client.socket.write(Data(answer.utf8))
                try? client.close()
                continue
            }
        }
    }
} catch {
    FileHandle.standardError.write(Data("storesh-inspector: the server stopped: \(error)\n".utf8))
    exit(1)
}
