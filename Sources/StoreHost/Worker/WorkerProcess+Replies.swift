import Dispatch
import Foundation
import StoreValue

#if canImport(Glibc)
    import Glibc
#endif

/// Taking in what the worker sends: its bytes read into frames, each frame filed as an
/// event or as the reply to the request it answers, and events handed on in order, those
/// before a reply when the reply is taken and the rest between requests.
extension WorkerProcess {
    /// Reads until the reply to `ticket` is in; hands on the events before it, in order,
    /// and returns it. Events after it stay for the next reply, or for between requests.
    func waitForReply(_ ticket: UInt64, timeout: Double?, interrupted: () -> Bool) throws(WorkerLoss) -> [UInt8] {
        let started = DispatchTime.now().uptimeNanoseconds
        let forwardedBefore = forwardingNanoseconds
        while true {
            if loss == nil { try readReplies() }
            // A reply that came before the worker was lost is still its answer.
            if let reply = takeReply(ticket) {
                // What the plugin printed before it answered is in the pipe (the worker
                // flushes before it writes a reply): shown before the answer is.
                if loss == nil { readStderr() }
                return reply
            }
            if let loss { throw loss }
            var fds = [
                pollfd(fd: replies, events: Int16(POLLIN), revents: 0),
                pollfd(fd: stderr, events: Int16(POLLIN), revents: 0),
            ]
            // Most answers take microseconds: looked for briefly before sleeping.
            var ready = PipeSpin.poll(&fds)
            if ready == 0 { ready = poll(&fds, 2, 50) }
            if ready > 0, fds[1].revents != 0 { readStderr() }
            if interrupted() { throw lose(.interrupted) }
            if hasExited() {
                try readReplies()  // what it sent before it died
                if let reply = takeReply(ticket) { return reply }
                throw lose(reapedCause())
            }
            if let timeout {
                let forwarding = forwardingNanoseconds - forwardedBefore
                let waited = Double(DispatchTime.now().uptimeNanoseconds - started - forwarding) / 1e9
                if waited >= timeout, !isTraced {
                    throw lose(.hung(seconds: timeout))
                }
            }
        }
    }

    /// The reply to `ticket` if it is in, after handing on the events before it. A reply
    /// to an earlier request before it (a batch still in flight when this request was
    /// made) stays for that request's own wait: dropped, its wait would last until the
    /// worker counted as hung.
    func takeReply(_ ticket: UInt64) -> [UInt8]? {
        guard
            let found = inbox[inboxStart...].firstIndex(where: {
                if case .reply(ticket, _) = $0 { true } else { false }
            }),
            case .reply(_, let body) = inbox[found]
        else { return nil }
        var events: [Incoming] = []
        for index in inboxStart..<found {
            guard case .event(let type, _) = inbox[index], type != 0 else { continue }
            events.append(inbox[index])
            inbox[index] = .event(type: 0, body: [])  // taken
        }
        inbox[found] = .event(type: 0, body: [])
        while inboxStart < inbox.count, case .event(type: 0, _) = inbox[inboxStart] { inboxStart += 1 }
        compactInbox()
        deliver(events)
        return body
    }

    func compactInbox() {
        if inboxStart == inbox.count {
            inbox.removeAll(keepingCapacity: true)
            inboxStart = 0
        } else if inboxStart > 1024, inboxStart * 2 > inbox.count {
            inbox.removeSubrange(0..<inboxStart)
            inboxStart = 0
        }
    }

    /// Reads whatever the worker has sent, into frames; throws when it is gone.
    func readReplies() throws(WorkerLoss) {
        if let loss { throw loss }
        switch fileWaitingFrames() {
        case .drained: return
        case .closed: throw lose(reapedCause())
        case .broken(let error): throw lose(.protocolError(error.description))
        }
    }

    /// Reads what the worker wrote before it was lost, so that the requests it answered
    /// keep their answers (a write that found the worker gone does not undo the batch it
    /// finished before).
    func salvageReplies() {
        _ = fileWaitingFrames()
    }

    /// How reading the reply pipe ended.
    enum PipeReading {
        /// Nothing more for now.
        case drained
        /// The worker closed its end.
        case closed
        /// A frame does not decode.
        case broken(WireError)
    }

    /// Reads what is in the reply pipe now and files every whole frame in it.
    private func fileWaitingFrames() -> PipeReading {
        while true {
            let count = read(replies, chunk.baseAddress!, chunk.count)
            if count > 0 {
                frames.append(UnsafeRawBufferPointer(rebasing: chunk[0..<count]))
                do throws(WireError) {
                    while let frame = try frames.next() { try take(frame) }
                } catch {
                    return .broken(error)
                }
                if count < chunk.count { return .drained }
            } else if count == 0 {
                return .closed
            } else if errno != EINTR {
                return .drained  // EAGAIN: nothing more for now
            }
        }
    }

    /// Files one frame: an event, or the reply to the oldest request still unanswered
    /// (dropped when nobody wants it).
    func take(_ frame: (type: UInt8, body: [UInt8])) throws(WireError) {
        guard frame.type == WorkerProtocol.Message.reply.rawValue else {
            inbox.append(.event(type: frame.type, body: frame.body))
            return
        }
        guard awaitedStart < awaited.count else { throw WireError(description: "a reply to no request") }
        let ticket = awaited[awaitedStart]
        awaitedStart += 1
        if awaitedStart == awaited.count {
            awaited.removeAll(keepingCapacity: true)
            awaitedStart = 0
        }
        if let ticket { inbox.append(.reply(ticket: ticket, body: frame.body)) }
    }

    /// Between requests: events arrive (effects at work), or the worker dies.
    func readBetweenRequests() {
        guard loss == nil else { return }
        do {
            try readReplies()
        } catch {
            deliverUpToReply()
            onLoss?(error)
            return
        }
        deliverUpToReply()
    }

    /// Events that came after the reply just taken were read off the pipe by this wait, so
    /// no new bytes will wake the watcher for them: hand them on at the next main-queue
    /// turn (in order, before anything read later) unless a request still waits for its
    /// reply, whose taking hands them on.
    func scheduleStrandedEvents() {
        guard inboxStart < inbox.count, !awaited[awaitedStart...].contains(where: { $0 != nil }) else { return }
        DispatchQueue.main.async { [weak self] in
            MainActor.assumeIsolated {
                guard let self, self.loss == nil else { return }
                self.deliverUpToReply()
            }
        }
    }

    /// Hands on the events that arrived before any reply still waiting for its request.
    func deliverUpToReply() {
        let end = inbox[inboxStart...].firstIndex { if case .reply = $0 { true } else { false } } ?? inbox.count
        let events = Array(inbox[inboxStart..<end])
        inboxStart = end
        compactInbox()
        deliver(events)
    }

    /// Hands on `events` in order. Reentrant: a handler may make a request, which reads
    /// (and files) more.
    func deliver(_ events: [Incoming]) {
        for case .event(let type, let body) in events where type != 0 {
            onEvent?(type, body)
        }
    }
}
