import HostTestSupport
import Testing

@testable import StoreValue

/// An element whose encoding fails while it is armed, as a model's custom `encode(to:)`
/// may (a value it cannot write).
private struct Fuse: Codable, Equatable {
    struct Armed: Error {}

    var id: Int
    var done = false
    var armed = false

    func encode(to encoder: any Encoder) throws {
        if armed { throw Armed() }
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(done, forKey: .done)
        try container.encode(armed, forKey: .armed)
    }
}

@Suite("A tracker's baseline survives an encoding that fails")
struct TrackerBaselineTests {
    /// An encoding takes nodes from the last tree as it goes (a list with one element
    /// changed takes its old list's nodes): one that then fails leaves no baseline, so the
    /// next changes are nil (read whole), and the next whole read is the state.
    @Test(arguments: [false, true])
    func aFailedEncodingLeavesNoBaseline(wholeRead: Bool) throws {
        let tracker = ChangeTracker(smallState: 0)
        var list = (0..<100).map { Fuse(id: $0) }
        _ = try tracker.snapshot(of: list)
        list[10].done = true  // taken in place: the old list's nodes move to the new one
        list[90].armed = true  // then the encoding fails
        if wholeRead {
            #expect(throws: (any Error).self) { try tracker.snapshot(of: list) }
        } else {
            #expect(throws: (any Error).self) { try tracker.changes(of: list) }
        }
        list[90].armed = false
        #expect(try tracker.changes(of: list) == nil, "no baseline: a whole read is needed")
        var shown = try tracker.snapshot(of: list)
        #expect(shown == (try ValueEncoder().encode(list)))
        list[50].done = true
        try expectChangesRoundTrip(tracker, list, shown: &shown, round: "after the failed encoding")
    }
}
