import Foundation
import InspectorRelay
import StoreValue

extension FuzzTarget {
    /// Bytes as what the inspector's server process sends storesh (or storesh sends it):
    /// frames of relay messages. Reading never traps, and every message read writes back as
    /// a frame that reads back as the same message.
    static func relayStream(_ data: Data) {
        var frames = FrameBuffer(limit: RelayMessage.frameLimit)
        Array(data).withUnsafeBytes { frames.append($0) }
        while let (type, body) = try? frames.next() {
            guard let message = try? RelayMessage(type: type, body: body) else { continue }
            let frame = message.frame
            guard frame.count >= 5, let again = try? RelayMessage(type: frame[4], body: Array(frame.dropFirst(5))),
                again == message
            else {
                violated("relay message \(message) does not read back as itself")
            }
        }
    }
}
