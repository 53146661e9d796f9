// storesh-inspector: the inspector's HTTP server, in a process of its own. storesh starts
// it for `--inspect` and `:inspect`; it listens on 127.0.0.1 and relays every request to
// storesh, which checks and answers it (InspectorRelay describes the messages). Only this
// program links FlyingFox and the networking libraries it brings (FoundationNetworking,
// curl), which would otherwise load at every start of storesh.
//
//   storesh-inspector --port PORT     (0: any free port)
//   fd 3: storesh's answers; fd 4: the requests to storesh. When storesh closes fd 3
//   (it stopped the inspector, or ended), this program ends.
import FlyingFox
import FlyingSocks
import Foundation
import InspectorRelay

/// Says nothing: what a client does wrong is its own business, and storesh's output
/// belongs to the session.
struct QuietLogger: Logging {
    func logDebug(_ debug: @autoclosure () -> String) {}
    func logInfo(_ info: @autoclosure () -> String) {}
    func logWarning(_ warning: @autoclosure () -> String) {}
    func logError(_ error: @autoclosure () -> String) {}
    func logCritical(_ critical: @autoclosure () -> String) {}
}

/// The port the command line asks for, or nil when it is not `--port N` with N from 0 to
/// 65535.
func requestedPort(_ arguments: [String]) -> UInt16? {
    guard arguments.count == 2, arguments[0] == "--port", let port = Int(arguments[1]), (0...65_535).contains(port)
    else { return nil }
    return UInt16(port)
}

let answers: Int32 = 3
let requests: Int32 = 4
// storesh may end while an answer is written: a write then fails instead of killing us.
signal(SIGPIPE, SIG_IGN)
guard let port = requestedPort(Array(CommandLine.arguments.dropFirst())) else {
    FileHandle.standardError.write(
        Data("usage: storesh-inspector --port PORT (run by storesh for --inspect; fd 3 and 4 are its relay)\n".utf8))
    exit(2)
}
let writer = RelayWriter(fd: requests)
let relay = Relay(writer: writer)
let server: HTTPServer
do {
    server = HTTPServer(
        address: try .inet(ip4: "127.0.0.1", port: port), timeout: 60, logger: QuietLogger(),
        handler: RelayedHandler(relay: relay))
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

let listening = Task {
    for _ in 0..<500 {
        if let address = await server.listeningAddress, case .ip4(_, let bound) = address {
            if !turnNagleOff(listeningOn: bound) {
                FileHandle.standardError.write(
                    Data(
                        "storesh-inspector: cannot set TCP_NODELAY; answers on a kept-alive connection may wait 40 ms\n"
                            .utf8))
            }
            writer.send(.listening(port: Int(bound)))
            return
        }
        try? await Task.sleep(nanoseconds: 10_000_000)
    }
    writer.send(.cannotListen(reason: "it did not start listening within 5 seconds"))
    exit(1)
}
do {
    try await server.run()
} catch {
    listening.cancel()
    writer.send(.cannotListen(reason: "\(error)"))
    exit(1)
}
