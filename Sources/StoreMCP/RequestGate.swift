import Dispatch
import Foundation
import MCP
import MCPLines
import StoreHost
import Synchronization

/// Makes the SDK's server run requests one at a time, in the order they were read, and
/// answer them in that order. The SDK starts a task for each request it reads, so requests
/// read together run in whatever order the scheduler picks; serialising the handlers cannot
/// restore the order of arrival. The gate hands the SDK the next request only once the
/// previous one's answer was written.
///
/// Two threads of its own: the transport's reader queues every line as it arrives (so a
/// client that writes a burst before it reads answers never blocks on a full pipe), and a
/// dispatcher takes lines in order, judges each (`IncomingMessage`), writes the error
/// answers itself, passes notifications on, and for a request passes it on and waits until
/// `deliver` has written its answer; a `tools/call` it runs itself (`DirectToolCall`),
/// past the SDK, and waits until `answer` has written its answer. A batch's items go
/// through the gate one by one; their answers are written together, as one array, once
/// the last is in.
///
/// Every write to the output goes through the gate's lock: an answer and a notification
/// written from two threads never interleave.
final class RequestGate: Sendable {
    private struct State {
        var lines: [Data] = []
        var next = 0
        var inputEnded = false
        /// The request the SDK is running, whose answer the dispatcher waits for.
        var inFlight: ID?
        var answerWasResult = false
        /// A batch's answers, while the gate runs its items.
        var batchAnswers: [Data]?
        var checks: [String: IncomingMessage.ParameterCheck] = [:]
        var toolCalls: ToolCallAnswerer?
        var stopped = false
    }

    private let state = Mutex(State())
    private let linesWaiting = DispatchSemaphore(value: 0)
    private let answerWritten = DispatchSemaphore(value: 0)
    private let output: Int32
    /// Records to put in the messages written, in place of their placeholders.
    let records = RecordSplice()
    private let forward: @Sendable (Data) -> Void
    private let finish: @Sendable () -> Void

    /// A gate that writes to `output`, hands the SDK messages with `forward`, and calls
    /// `finish` once the input ended and every request read was answered.
    init(output: Int32, forward: @escaping @Sendable (Data) -> Void, finish: @escaping @Sendable () -> Void) {
        self.output = output
        self.forward = forward
        self.finish = finish
    }

    /// The params check of each method the server answers.
    func use(_ checks: [String: IncomingMessage.ParameterCheck]) {
        state.withLock { $0.checks = checks }
    }

    /// Runs a `tools/call` without the SDK: starts the call and answers it through the
    /// reply, from any thread (`DirectToolCall`).
    typealias ToolCallAnswerer = @Sendable (DirectToolCall, DirectToolCall.Reply) -> Void

    /// Answers `tools/call` requests with `answerer` from now on.
    func answerToolCalls(with answerer: @escaping ToolCallAnswerer) {
        state.withLock { $0.toolCalls = answerer }
    }

    /// Queues a line read (the reader thread).
    func enqueue(_ line: Data) {
        state.withLock { $0.lines.append(line) }
        linesWaiting.signal()
    }

    /// Notes that the input ended (the reader thread).
    func endOfInput() {
        state.withLock { $0.inputEnded = true }
        linesWaiting.signal()
    }

    /// Lets a dispatcher waiting for an answer go: the server stopped.
    func stop() {
        let waiting = state.withLock { state in
            state.stopped = true
            return state.inFlight != nil
        }
        if waiting { answerWritten.signal() }
        linesWaiting.signal()
    }

    /// Writes a message the SDK sends: an answer to the request in flight lets the next
    /// one go (or joins its batch's answers); anything else (a notification) is written
    /// at once.
    func deliver(_ data: Data) {
        let head = try? JSONDecoder().decode(AnswerHead.self, from: data)
        let answered = state.withLock { state -> Bool in
            guard let head, head.isAnswer, let inFlight = state.inFlight, head.id == inFlight else {
                write(data)
                return false
            }
            state.inFlight = nil
            state.answerWasResult = head.isResult
            if state.batchAnswers != nil { state.batchAnswers!.append(data) } else { write(data) }
            return true
        }
        if answered { answerWritten.signal() }
    }

    /// Writes the answer to the request in flight, which the gate answered itself
    /// (`DirectToolCall`), and lets the next one go.
    func answer(_ data: Data) {
        state.withLock { state in
            state.inFlight = nil
            state.answerWasResult = true
            if state.batchAnswers != nil { state.batchAnswers!.append(data) } else { write(data) }
        }
        answerWritten.signal()
    }

    /// Hands the request in flight to the SDK after all; its answer comes through `deliver`.
    func handOn(_ request: Data) {
        forward(request)
    }

    /// The dispatcher: runs until the input ended and every request was answered.
    func run() {
        var initialized = false
        while let line = take() {
            dispatch(line, inBatch: false, initialized: &initialized)
        }
        finish()
    }

    private func take() -> Data? {
        linesWaiting.wait()
        return state.withLock { state -> Data? in
            guard !state.stopped, state.next < state.lines.count else { return nil }
            let line = state.lines[state.next]
            state.next += 1
            if state.next >= 1024, state.next * 2 >= state.lines.count {
                state.lines.removeFirst(state.next)
                state.next = 0
            }
            return line
        }
    }

    private func dispatch(_ line: Data, inBatch: Bool, initialized: inout Bool) {
        let checks = state.withLock { $0.checks }
        switch IncomingMessage.classify(line, initialized: initialized, checks: checks) {
        case .answer(let answer):
            state.withLock { state in
                if inBatch { state.batchAnswers?.append(answer) } else { write(answer) }
            }
        case .request(let requestID, let method, let request):
            let id = requestID.mcp
            let stopped = state.withLock { state in
                state.inFlight = id
                return state.stopped
            }
            guard !stopped else { return }
            if method == CallTool.name, let answerer = state.withLock({ $0.toolCalls }),
                let call = DirectToolCall(line: request)
            {
                answerer(call, DirectToolCall.Reply(id: id, line: request, gate: self))
            } else {
                forward(request)
            }
            answerWritten.wait()
            if method == Initialize.name, state.withLock({ $0.answerWasResult }) { initialized = true }
        case .notification(_, let notification):
            forward(notification)
        case .ignored:
            break
        case .batch(let items):
            guard !inBatch else {
                let answer = IncomingMessage.error(.invalidRequest, "a batch's item must be a message", id: nil)
                state.withLock { $0.batchAnswers?.append(answer) }
                return
            }
            state.withLock { $0.batchAnswers = [] }
            for item in items { dispatch(item, inBatch: true, initialized: &initialized) }
            state.withLock { state in
                let answers = state.batchAnswers ?? []
                state.batchAnswers = nil
                guard !answers.isEmpty else { return }  // notifications only: nothing to say
                var array = Data("[".utf8)
                for (index, answer) in answers.enumerated() {
                    if index > 0 { array.append(UInt8(ascii: ",")) }
                    array.append(answer)
                }
                array.append(UInt8(ascii: "]"))
                write(array)
            }
        }
    }

    /// Writes one message (its records in place) and its newline; called with the lock held.
    private func write(_ message: Data) {
        var line = records.splice(message)
        line.append(UInt8(ascii: "\n"))
        line.withUnsafeBytes { StandardStreams.write($0, to: output) }
    }

    /// What tells a message the SDK sends apart: an answer has an id and no method.
    private struct AnswerHead: Decodable {
        let id: ID?
        let isAnswer: Bool
        let isResult: Bool

        enum CodingKeys: String, CodingKey { case id, method, result }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decodeIfPresent(ID.self, forKey: .id)
            isAnswer = id != nil && !container.contains(.method)
            isResult = container.contains(.result)
        }
    }
}

extension RequestID {
    /// The SDK's id for this one.
    var mcp: ID {
        switch self {
        case .string(let text): .string(text)
        case .number(let number): .number(number)
        }
    }
}
