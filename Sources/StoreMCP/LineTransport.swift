import Foundation
import Logging
import MCP
import MCPLines
import StoreHost

#if canImport(Glibc)
    import Glibc
#endif

/// MCP's stdio transport: one JSON-RPC message per line, read from `input` and written
/// to `output`. The SDK's own stdio transport polls a non-blocking descriptor every 10 ms
/// (a round trip paid up to 10 ms for nothing) and keeps any line however long; this one
/// blocks a thread of its own in `read`, and drops a line over `lineLimit` with a note on
/// standard error, so a client that sends a gigabyte without a newline costs nothing.
///
/// Every line goes through a `RequestGate`: requests reach the SDK one at a time, in the
/// order they were read, and are answered in that order; what is not a valid request is
/// answered (or, a notification, dropped) before the SDK sees it. The messages the SDK
/// reads end once the input ended and every request read was answered, so the server's
/// end is the session's.
///
/// Writes go through `StandardStreams`: a client that went away (EPIPE) ends storesh as
/// it ends a filter, after the journal, written record by record, holds everything.
actor LineTransport: Transport {
    /// The longest message taken: 64 MiB (a value tree as big as a worker frame is no
    /// use to anyone as one JSON-RPC message).
    static let lineLimit = 64 << 20

    nonisolated let logger = Logger(label: "storesh.mcp.transport", factory: { _ in SwiftLogNoOpLogHandler() })
    private let input: Int32
    private let messages: AsyncThrowingStream<Data, any Swift.Error>
    private let continuation: AsyncThrowingStream<Data, any Swift.Error>.Continuation
    private let gate: RequestGate
    private var started = false

    init(input: Int32, output: Int32) {
        self.input = input
        let (messages, continuation) = AsyncThrowingStream<Data, any Swift.Error>.makeStream()
        self.messages = messages
        self.continuation = continuation
        gate = RequestGate(
            output: output, forward: { continuation.yield($0) }, finish: { continuation.finish() })
    }

    /// Where a record goes as the bytes it was written in (`RecordSplice`).
    nonisolated var records: RecordSplice { gate.records }

    /// The params check of each method the server answers (`ParameterChecks`).
    func check(with checks: [String: IncomingMessage.ParameterCheck]) {
        gate.use(checks)
    }

    /// Answers `tools/call` itself with `answerer`, past the SDK (`DirectToolCall`).
    func answerToolCalls(with answerer: @escaping RequestGate.ToolCallAnswerer) {
        gate.answerToolCalls(with: answerer)
    }

    func connect() async throws {
        guard !started else { return }
        started = true
        let reader = Thread { [input, gate] in
            LineTransport.readLines(from: input) { line in
                gate.enqueue(line)
            } tooLong: { length in
                StandardStreams.error(
                    "storesh mcp: a message of \(length) bytes was dropped: longer than the limit of \(LineTransport.lineLimit)\n"
                )
            }
            gate.endOfInput()
        }
        reader.name = "storesh-mcp-stdin"
        reader.start()
        let dispatcher = Thread { [gate] in gate.run() }
        dispatcher.name = "storesh-mcp-gate"
        dispatcher.start()
    }

    func disconnect() async {
        gate.stop()
        continuation.finish()
    }

    func send(_ data: Data) async throws {
        gate.deliver(data)
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
