import Glibc
import InspectorRelay
import StoreHost
import StoreValue
import Testing

/// The messages between the inspector and its HTTP server process: each reads back as
/// itself, and bytes that are not a message are refused with what was wrong.
@Suite struct RelayMessageTests {
    static let everyKind: [RelayMessage] = [
        .listening(port: 65_535),
        .cannotListen(reason: "Address already in use — port 8080"),
        .request(
            id: 1,
            RelayedRequest(
                method: "POST", path: "/api/operations/send", query: ["token": "ab", "ü": ""],
                headers: ["host": "127.0.0.1:8080", "origin": "http://127.0.0.1:8080"],
                body: Array(#"{"action":"increment"}"#.utf8))),
        .request(id: .max, RelayedRequest(method: "GET", path: "/", query: [:], headers: [:])),
        .closed(id: 7),
        .head(
            id: 2,
            RelayedHead(
                status: 200, contentType: "text/event-stream; charset=utf-8", headers: RelayedHead.guardHeaders,
                streams: true)),
        .head(id: 3, RelayedHead.text(413)),
        .body(id: 2, Array("event: session\ndata: {}\n\n".utf8)),
        .body(id: 4, []),
        .end(id: 2),
    ]

    /// The messages a byte stream holds, read as storesh's side reads them.
    static func read(_ bytes: [UInt8]) throws(WireError) -> [RelayMessage] {
        var frames = FrameBuffer(limit: RelayMessage.frameLimit)
        bytes.withUnsafeBytes { frames.append($0) }
        var messages: [RelayMessage] = []
        while let (type, body) = try frames.next() { messages.append(try RelayMessage(type: type, body: body)) }
        return messages
    }

    @Test func everyKindReadsBackAsItself() throws {
        let stream = Self.everyKind.flatMap(\.frame)
        #expect(try Self.read(stream) == Self.everyKind)
    }

    @Test func aMessageOfAnUnknownTypeIsRefused() {
        #expect(throws: WireError(description: "a relay message of unknown type 99")) {
            try RelayMessage(type: 99, body: [])
        }
    }

    @Test func aMessageThatEndsEarlyOrGoesOnIsRefused() {
        let frame = RelayMessage.request(
            id: 1, RelayedRequest(method: "GET", path: "/", query: ["a": "b"], headers: [:])
        ).frame
        let body = Array(frame.dropFirst(5))
        #expect(throws: WireError.self) { try RelayMessage(type: frame[4], body: Array(body.dropLast())) }
        #expect(throws: WireError(description: "a relay message of type 3 has 1 bytes too many")) {
            try RelayMessage(type: frame[4], body: body + [0])
        }
    }

    @Test func aFrameLargerThanTheLimitIsRefusedBeforeItIsRead() {
        var length = WireWriter()
        length.u32(UInt32(RelayMessage.frameLimit + 1))
        #expect(throws: WireError(description: "a frame of \(RelayMessage.frameLimit + 1) bytes")) {
            try Self.read(length.bytes)
        }
    }

    @Test func aCountOfPairsLargerThanTheMessageIsRefused() {
        var writer = WireWriter()
        writer.u32(1)
        writer.string("GET")
        writer.string("/")
        writer.u32(1_000_000)  // query pairs
        #expect(throws: WireError.self) { try RelayMessage(type: 3, body: writer.bytes) }
    }

    /// Stopping the server closes storesh's end of its answers while answers may still be
    /// on their way (an event stream's next event): those writes must go nowhere, not to
    /// whatever pipe has the number next (a worker's, which would read them as requests).
    @Test func aClosedWriterWritesNothingAnywhere() throws {
        // Close-on-exec (and numbered from 10, the lowest free): no child another test
        // starts meanwhile holds an end open.
        let made = try Spawn.pipe()
        let ends = [made.read, made.write]
        defer { close(ends[0]) }
        let writer = RelayWriter(fd: ends[1])
        #expect(writer.send(.end(id: 1)))
        writer.close()
        var chunk = [UInt8](repeating: 0, count: 64)
        let first = Glibc.read(ends[0], &chunk, chunk.count)
        #expect(try Self.read(Array(chunk[0..<max(first, 0)])) == [.end(id: 1)])
        #expect(Glibc.read(ends[0], &chunk, chunk.count) == 0, "the write end is closed: end of file")
        // The kernel gives the lowest free numbers: the closed one is likely among these.
        let following = try Spawn.pipe()
        let next = [following.read, following.write]
        defer { next.forEach { close($0) } }
        #expect(!writer.send(.end(id: 2)) && !writer.send(.body(id: 2, [1, 2, 3])))
        _ = fcntl(next[0], F_SETFL, fcntl(next[0], F_GETFL) | O_NONBLOCK)
        #expect(Glibc.read(next[0], &chunk, chunk.count) == -1 && errno == EAGAIN, "nothing reached the next pipe")
        writer.close()  // twice is once
    }
}
