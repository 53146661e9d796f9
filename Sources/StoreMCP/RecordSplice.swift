import Foundation
import MCP
import Synchronization

/// Records encoded once. A tool result's structured content (and a log message's record)
/// is one of storesh's records, JSON text the shell's formatter wrote; the SDK takes only
/// an `MCP.Value` tree, which it encodes again. On the stdio transport the message carries
/// a placeholder string instead (`placeholder(for:)`), and the transport writes the
/// record's own bytes in its place (`splice`) as it writes the message: the record is not
/// decoded into a tree and encoded again.
///
/// A placeholder is a string no client can know (random per process, numbered per record),
/// so nothing a client sent can be taken for one; each is replaced once, then forgotten.
final class RecordSplice: Sendable {
    private struct Pending {
        var next = 0
        /// Each placeholder as it appears in an encoded message (quoted), and its record.
        var records: [(placeholder: Data, record: Data)] = []
    }

    /// At most this many records wait for their message; older ones (a message the SDK
    /// never sent) are forgotten.
    private static let waitingLimit = 64

    private let prefix = "storesh-record-" + UUID().uuidString.lowercased() + "-"
    private let pending = Mutex(Pending())

    /// The value to put where `record` (a JSON text) goes; `splice` replaces it.
    func placeholder(for record: String) -> MCP.Value {
        let name = pending.withLock { pending in
            pending.next += 1
            let name = prefix + String(pending.next)
            pending.records.append((Data(("\"" + name + "\"").utf8), Data(record.utf8)))
            if pending.records.count > Self.waitingLimit { pending.records.removeFirst() }
            return name
        }
        return .string(name)
    }

    /// `message` with each placeholder it holds replaced by its record's bytes.
    func splice(_ message: Data) -> Data {
        pending.withLock { pending in
            guard !pending.records.isEmpty else { return message }
            var spliced = message
            pending.records.removeAll { entry in
                guard let range = spliced.range(of: entry.placeholder) else { return false }
                spliced.replaceSubrange(range, with: entry.record)
                return true
            }
            return spliced
        }
    }
}
