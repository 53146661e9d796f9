import Foundation
import StoreHost
import StoreShell
import StoreValue

extension FuzzTarget {
    /// Bytes as the answers of a `:stub` line (what follows the service's name): answers
    /// that read are written back (as explore's search writes the `:stub` lines it starts
    /// with) as text that reads back as the same answers; nothing traps.
    static func stubAnswers(_ data: Data) {
        var scanner = LiteralScanner(bytes: Array(data.prefix(8192)), index: 0)
        guard let answers = try? StubAnswers.read(after: &scanner) else { return }
        let written = StubAnswers.written(answers)
        var again = LiteralScanner(bytes: Array(written.utf8), index: 0)
        let reread: [StubScript.Answer]
        do throws(TextError) {
            reread = try StubAnswers.read(after: &again)
        } catch {
            violated("answers written as '\(written)' do not read back: \(error)")
        }
        // Compared as written: a value unequal to itself (a NaN) still reads as itself.
        guard StubAnswers.written(reread) == written, reread.count == answers.count else {
            violated("'\(written)' reads back as '\(StubAnswers.written(reread))'")
        }
    }
}
