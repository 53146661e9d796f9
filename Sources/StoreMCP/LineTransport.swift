import Foundation
import Logging
import MCP
import StoreHost
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// MCP's stdio transport: one JSON-RPC message per line, read from `input` and written
/// to `output`. The SDK's own stdio transport polls a non-blocking descriptor every 10 ms
/// (a round trip paid up to 10 ms for nothing) and keeps any line however long; this one
/// blocks a thread of its own in `read`, and drops a line over `lineLimit` with an
/// error answer, so a client that sends a gigabyte without a newline costs nothing.
///
/// Writes go through `StandardStreams`: a client that went away (EPIPE) ends storesh as
/// it ends a filter, after the journal, written record by record, holds everything.
actor LineTransport: Transport {
    /// The longest message taken: 64 MiB (a value tree as big as a worker frame is no
    /// use to anyone as one JSON-RPC message).
    static let lineLimit = 64 << 20

    nonisolated let logger = Logger(label: "storesh.mcp.transport", factory: { _ in SwiftLogNoOpLogHandler() })
    private let input: Int32
    private let output: Int32
    private let messages: AsyncThrowingStream<Data, any Swift.Error>
    private let continuation: AsyncThrowingStream<Data, any Swift.Error>.Continuation
    private var started = false
    /// Requests read and not yet answered: at the end of input, the server answers them
    /// before it stops.
    let ledger = AnswerLedger()

    init(input: Int32, output: Int32) {
        self.input = input
        self.output = output
        (messages, continuation) = AsyncThrowingStream.makeStream()
    }

    func connect() async throws {
        guard !started else { return }
        started = true
        let reader = Thread { [input, continuation, ledger] in
            LineTransport.readLines(from: input) { line in
                ledger.noteRequests(in: line)
                continuation.yield(line)
            } tooLong: { length in
                StandardStreams.error(
                    "storesh mcp: a message of \(length) bytes was dropped: longer than the limit of \(LineTransport.lineLimit)\n"
                )
            }
            continuation.finish()
        }
        reader.name = "storesh-mcp-stdin"
        reader.start()
    }

    func disconnect() async {
        continuation.finish()
    }

    func send(_ data: Data) async throws {
        ledger.noteAnswers(in: data)
        var line = data
        line.append(UInt8(ascii: "\n"))
        let output = output
        line.withUnsafeBytes { StandardStreams.write($0, to: output) }
    }

    func receive() -> AsyncThrowingStream<Data, any Swift.Error> {
        messages
    }

    /// Reads `fd` to its end, handing on each line without its newline; a line longer
    /// than the limit is skipped to its end and reported by its length instead.
    nonisolated static func readLines(from fd: Int32, line handle: (Data) -> Void, tooLong: (Int) -> Void) {
        var pending = Data()
        var skipping = false
        var skipped = 0
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            var start = 0
            while start < count {
                guard let newline = buffer[start..<count].firstIndex(of: UInt8(ascii: "\n")) else {
                    if skipping {
                        skipped += count - start
                    } else {
                        pending.append(contentsOf: buffer[start..<count])
                        if pending.count > lineLimit {
                            skipping = true
                            skipped = pending.count
                            pending = Data()
                        }
                    }
                    break
                }
                if skipping {
                    tooLong(skipped + newline - start)
                    skipping = false
                } else {
                    pending.append(contentsOf: buffer[start..<newline])
                    if pending.count > lineLimit {
                        tooLong(pending.count)
                    } else if !pending.allSatisfy({ $0 == 0x20 || $0 == 0x0D || $0 == 0x09 }) {
                        handle(pending)
                    }
                    pending = Data()
                }
                start = newline + 1
            }
        }
        if skipping { tooLong(skipped) } else if !pending.isEmpty, pending.count <= lineLimit { handle(pending) }
    }
}

/// The ids of requests read and not yet answered.
final class AnswerLedger: Sendable {
    private let unanswered = Mutex(Set<String>())

    /// True while a request read has not been answered.
    var waitsForAnswers: Bool { unanswered.withLock { !$0.isEmpty } }

    /// Notes the requests in a message read (a batch has several).
    func noteRequests(in data: Data) {
        let requests = Self.ids(in: data).filter(\.isRequest)
        guard !requests.isEmpty else { return }
        unanswered.withLock { set in for request in requests { set.insert(request.id) } }
    }

    /// Notes the answers in a message written.
    func noteAnswers(in data: Data) {
        let answers = Self.ids(in: data).filter { !$0.isRequest }
        guard !answers.isEmpty else { return }
        unanswered.withLock { set in for answer in answers { set.remove(answer.id) } }
    }

    /// The ids of the messages in `data` (one message or a batch), each with whether it
    /// is a request (a method and an id) or an answer.
    private static func ids(in data: Data) -> [(id: String, isRequest: Bool)] {
        guard let parsed = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) else {
            return []
        }
        let messages = (parsed as? [Any]) ?? [parsed]
        return messages.compactMap { message in
            guard let object = message as? [String: Any], let id = object["id"], !(id is NSNull) else { return nil }
            return ("\(id)", object["method"] != nil)
        }
    }
}
