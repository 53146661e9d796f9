/// What a client has sent and the server has not used yet, and the reads that add to it,
/// each within a deadline and a limit. Every byte is looked at once (a line's end is
/// searched for only in what was just read), so a long or slow request costs time in
/// proportion to its length, and is refused as soon as it passes a limit.
package struct Incoming<Source: RequestByteSource> {
    package let source: Source
    package let limits: HTTPLimits
    private var bytes: [UInt8] = []
    /// `bytes` before this index are used.
    private var start = 0

    private static var lineFeed: UInt8 { UInt8(ascii: "\n") }
    private static var carriageReturn: UInt8 { UInt8(ascii: "\r") }

    package init(source: Source, limits: HTTPLimits) {
        self.source = source
        self.limits = limits
    }

    /// The next request's head, its lines without their ends (empty lines before it are
    /// skipped). Throws `ConnectionOver` when the client closes, or sends nothing for
    /// `idleSeconds`, before a head begins; a `Refusal` when the head passes a limit or
    /// does not end within `headSeconds` of its first byte.
    package mutating func readHead() async throws -> [ArraySlice<UInt8>] {
        compact()
        var lines: [Range<Int>] = []
        var lineStart = 0
        var scan = 0
        var blankLines = 0
        var deadline: ContinuousClock.Instant? = bytes.isEmpty ? nil : .after(limits.headSeconds)
        while true {
            while scan < bytes.count {
                defer { scan += 1 }
                guard bytes[scan] == Self.lineFeed else { continue }
                let line = lineStart..<(scan > lineStart && bytes[scan - 1] == Self.carriageReturn ? scan - 1 : scan)
                lineStart = scan + 1
                if line.isEmpty {
                    if !lines.isEmpty {
                        // The whole head, its end included, counts: read at once, it never
                        // passed the check below (a head of 2 KiB more came through).
                        guard scan + 1 <= limits.head else { throw headTooLarge }
                        start = scan + 1
                        return lines.map { bytes[$0] }
                    }
                    // RFC 9112 §2.2: empty lines before a request line are ignored (a few).
                    blankLines += 1
                    guard blankLines <= 4 else { throw Refusal(400, "the request begins with empty lines") }
                    continue
                }
                try check(line, number: lines.count)
                lines.append(line)
            }
            // A line still arriving is refused as soon as it is too long or one too many.
            // A CR at its end may begin its line end, which is not part of it; a CR alone
            // may begin the empty line that ends the head, which is no header. (Counted,
            // a line of exactly the limit, or a head of exactly `fields` headers, whose
            // CRLF came in two reads was refused 431; read at once, it was taken.)
            if lineStart < bytes.count {
                let end = bytes[bytes.count - 1] == Self.carriageReturn ? bytes.count - 1 : bytes.count
                if end > lineStart { try check(lineStart..<end, number: lines.count) }
            }
            guard bytes.count <= limits.head else { throw headTooLarge }
            if let deadline {
                try await fill(before: deadline, late: Refusal(408, "the request's head did not arrive in time"))
            } else {
                try await fill(before: .after(limits.idleSeconds), late: ConnectionOver())
                deadline = .after(limits.headSeconds)
            }
        }
    }

    private var headTooLarge: Refusal {
        Refusal(431, "the request's head is larger than \(limits.head / 1024) KiB")
    }

    /// Refuses line `number` of a head (0: the request line), complete or not, when it is
    /// longer than its limit or one too many.
    private func check(_ line: Range<Int>, number: Int) throws(Refusal) {
        if number == 0 {
            guard line.count > limits.requestLine else { return }
            // A method, a space, then a target that goes on: the target is what is too long.
            let space = bytes[line].prefix(33).firstIndex(of: UInt8(ascii: " "))
            let target = space.map { bytes[($0 + 1)..<line.upperBound].prefix { $0 != UInt8(ascii: " ") }.count } ?? 0
            if target >= limits.requestLine / 2 {
                throw Refusal(414, "the request's target is longer than \(limits.requestLine / 1024) KiB")
            }
            throw Refusal(400, "the request line is longer than \(limits.requestLine / 1024) KiB")
        }
        guard number <= limits.fields else { throw Refusal(431, "the request has more than \(limits.fields) headers") }
        guard line.count <= limits.fieldLine else {
            throw Refusal(431, "a header line is longer than \(limits.fieldLine / 1024) KiB")
        }
    }

    /// A request's body, framed as its head says, at most `limits.body` bytes within
    /// `bodySeconds`. A chunked body is refused (413) at the first chunk size that would
    /// take it past the limit, before that chunk is read.
    package mutating func readBody(_ framing: RequestHead.Body) async throws -> [UInt8] {
        let deadline = ContinuousClock.Instant.after(limits.bodySeconds)
        switch framing {
        case .empty:
            return []
        case .length(let length):
            guard length <= limits.body else { throw tooLarge }
            var body: [UInt8] = []
            body.reserveCapacity(length)
            try await read(length, into: &body, before: deadline)
            return body
        case .chunked:
            return try await readChunks(before: deadline)
        }
    }

    private var tooLarge: Refusal { Refusal(413, "an operation's arguments are at most \(limits.body >> 20) MiB") }

    /// A chunked body (RFC 9112 §7.1), its chunks joined; its trailer is read and dropped.
    private mutating func readChunks(before deadline: ContinuousClock.Instant) async throws -> [UInt8] {
        var body: [UInt8] = []
        while true {
            let line = try await readLine(
                atMost: limits.chunkLine, before: deadline,
                tooLong: Refusal(400, "a chunk-size line is longer than \(limits.chunkLine) bytes"))
            let size = try Self.chunkSize(line)
            if size == 0 { break }
            guard size <= limits.body - body.count else { throw tooLarge }
            if body.capacity < body.count + size {
                body.reserveCapacity(min(limits.body, max(body.count + size, body.capacity * 2)))
            }
            try await read(size, into: &body, before: deadline)
            _ = try await readLine(
                atMost: 0, before: deadline, tooLong: Refusal(400, "a chunk is longer than its size says"))
        }
        var trailer = 0
        for number in 1... {
            let line = try await readLine(
                atMost: limits.fieldLine, before: deadline,
                tooLong: Refusal(431, "a trailer line is longer than \(limits.fieldLine / 1024) KiB"))
            if line.isEmpty { break }
            trailer += line.count
            guard number <= limits.fields, trailer <= limits.head else {
                throw Refusal(431, "the chunked body's trailer is too large")
            }
            _ = try RequestHead.field(line[...])
        }
        return body
    }

    /// The size a chunk-size line gives (hex digits, then nothing, extensions after ';',
    /// or spaces before them).
    package static func chunkSize(_ line: [UInt8]) throws(Refusal) -> Int {
        let digits = line.prefix { $0 < 128 && Character(Unicode.Scalar($0)).isHexDigit }
        let rest = line.dropFirst(digits.count)
        guard !digits.isEmpty, digits.count <= 15, let size = Int(String(decoding: digits, as: UTF8.self), radix: 16),
            rest.isEmpty || [UInt8(ascii: ";"), UInt8(ascii: " "), UInt8(ascii: "\t")].contains(rest.first!)
        else {
            let shown = String(decoding: line.prefix(40), as: UTF8.self)
            throw Refusal(400, "'\(shown)' is not a chunk size (hexadecimal digits, at most 15)")
        }
        return size
    }

    /// The next line without its end, at most `limit` bytes long, or `tooLong`.
    private mutating func readLine(
        atMost limit: Int, before deadline: ContinuousClock.Instant, tooLong: Refusal
    ) async throws -> [UInt8] {
        compact()
        var scan = 0
        while true {
            while scan < bytes.count {
                if bytes[scan] == Self.lineFeed {
                    let end = scan > 0 && bytes[scan - 1] == Self.carriageReturn ? scan - 1 : scan
                    guard end <= limit else { throw tooLong }
                    start = scan + 1
                    return Array(bytes[..<end])
                }
                scan += 1
            }
            guard bytes.count <= limit + 1 else { throw tooLong }
            try await fill(before: deadline, late: Refusal(408, "the request's body did not arrive in time"))
        }
    }

    /// Moves `count` bytes to the end of `body`.
    private mutating func read(
        _ count: Int, into body: inout [UInt8], before deadline: ContinuousClock.Instant
    ) async throws {
        var needed = count
        while needed > 0 {
            if start == bytes.count {
                try await fill(before: deadline, late: Refusal(408, "the request's body did not arrive in time"))
            }
            let taken = min(needed, bytes.count - start)
            body += bytes[start..<(start + taken)]
            start += taken
            needed -= taken
        }
    }

    /// Reads and throws away what the client still sends after an error answer (at most
    /// `drainBytes`, for at most `drainSeconds`, until it closes): closing with unread
    /// bytes would reset the connection, and the client might lose the answer.
    package mutating func drain() async {
        let deadline = ContinuousClock.Instant.after(limits.drainSeconds)
        var thrown = 0
        while thrown < limits.drainBytes {
            start = bytes.count
            do { try await fill(before: deadline, late: ConnectionOver()) } catch { return }
            thrown += bytes.count - start
        }
    }

    /// Drops the bytes already used.
    private mutating func compact() {
        guard start > 0 else { return }
        bytes.removeFirst(start)
        start = 0
    }

    /// Reads what the client sends next (at most 4 KiB, what FlyingSocks reads at once);
    /// throws `late` at `deadline`, `ConnectionOver` when the client closed or the read fails.
    private mutating func fill(before deadline: ContinuousClock.Instant, late: any Error) async throws {
        if start == bytes.count {
            bytes.removeAll(keepingCapacity: true)
            start = 0
        }
        let read: [UInt8]?
        do {
            read = try await source.read(atMost: 4096, before: deadline)
        } catch {
            throw ConnectionOver()
        }
        guard let read else { throw late }
        bytes += read
    }
}

/// Where a request's bytes come from: a client's socket, or (fuzzing) bytes in memory.
package protocol RequestByteSource {
    /// The bytes the client sends next, at most `count` and at least one; nil when
    /// `deadline` comes first. Throws when the client has closed or the read fails.
    func read(atMost count: Int, before deadline: ContinuousClock.Instant) async throws -> [UInt8]?
}
