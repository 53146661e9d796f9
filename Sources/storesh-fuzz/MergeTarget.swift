import Foundation
import StoreShell
import StoreValue

extension FuzzTarget {
    /// Bytes as the `--format json` reports of a search's shards (`storesh explore
    /// --merge`, whose files come from a CI matrix's artifacts): up to three, separated by
    /// a 0x01 byte. Each is read or refused with a message, never a trap; reports that read
    /// are merged or refused the same way; a merge's lines are written, and its record is
    /// JSON that reads back.
    static func shardReports(_ data: Data) {
        let parts = data.prefix(64 * 1024).split(separator: 0x01, maxSplits: 2, omittingEmptySubsequences: false)
        var reports: [ExploreShardReport] = []
        for (index, part) in parts.enumerated() {
            do throws(ExploreShardReport.Unreadable) {
                reports.append(try ExploreShardReport(data: Data(part), file: "shard-\(index).json"))
            } catch {
                guard !error.message.isEmpty else { violated("a report was refused without a word") }
                return
            }
        }
        for byJobs in [false, true] {
            let merged: MergedExplore
            do throws(ExploreShardReport.Unreadable) {
                merged = try MergedExplore(reports, byJobs: byJobs)
            } catch {
                guard !error.message.isEmpty else { violated("a merge was refused without a word") }
                return
            }
            _ = merged.lines
            let text = JSON.value(merged.record)
            do throws(JSON.Unreadable) {
                _ = try JSON.value(of: Array(text.utf8))
            } catch {
                violated("the merged record \(text.prefix(300)) is not JSON: \(error.message)")
            }
        }
    }
}
