import HostTestSupport
import StoreValue
import Testing

@testable import StoreHost

/// Lists of records told apart by id are diffed as they were before the ids were matched
/// in one table (`IdentityMatching`): the same changes in the same order, and the same
/// lists (a missing or repeated id) left to the plain list diff.
@Suite("Identified lists: one table of ids, the same diff")
struct IdentityMatchingTests {
    private func item(_ id: String?, _ title: String) -> Value {
        guard let id else { return .record(["title": .string(title)], type: "Item") }
        return .record(["id": .string(id), "title": .string(title)], type: "Item")
    }

    /// The diff as it was written before `IdentityMatching`: each list's ids checked for
    /// repeats on their own, then a table, a set and a set of the longest run.
    private func reference(
        _ diff: StateDiff, _ old: [Value], _ oldIDs: [String], _ new: [Value], _ newIDs: [String], path: String
    ) -> [StateChange] {
        var changes: [StateChange] = []
        var oldIndex: [String: Int] = [:]
        for (index, id) in oldIDs.enumerated() { oldIndex[id] = index }
        let newSet = Set(newIDs)
        for (index, id) in oldIDs.enumerated() where !newSet.contains(id) {
            changes.append(.init(kind: .removed, path: StateDiff.keyedPath(path, id), old: old[index], new: nil))
        }
        let staying = Set(StateDiff.longestIncreasingRun(newIDs.compactMap { oldIndex[$0] }))
        for (index, id) in newIDs.enumerated() {
            guard let before = oldIndex[id] else {
                changes.append(.init(kind: .added, path: StateDiff.keyedPath(path, id), old: nil, new: new[index]))
                continue
            }
            if !staying.contains(before) {
                changes.append(
                    .init(
                        kind: .moved, path: StateDiff.keyedPath(path, id), old: nil, new: nil, from: before, to: index))
            }
            if old[before] != new[index] {
                diff.diff(old[before], new[index], path: StateDiff.keyedPath(path, id), into: &changes)
            }
        }
        return changes
    }

    @Test func randomEditsGiveTheChangesTheyGaveBefore() {
        var generator = SplitMix(seed: 37)
        let diff = StateDiff()
        var compared = 0
        for round in 0..<3000 {
            let size = Int(generator.next() % 12)
            var old: [Value] = []
            for _ in 0..<size { old.append(item(generator.next() % 40 == 0 ? nil : "t\(generator.next() % 14)", "a")) }
            var new = old
            for _ in 0..<(generator.next() % 5) {
                switch generator.next() % 5 {
                case 0 where !new.isEmpty: new.remove(at: Int(generator.next() % UInt64(new.count)))
                case 1:
                    new.insert(
                        item("t\(generator.next() % 20)", "b"), at: Int(generator.next() % UInt64(new.count + 1)))
                case 2 where new.count > 1:
                    new.swapAt(Int(generator.next() % UInt64(new.count)), Int(generator.next() % UInt64(new.count)))
                case 3 where !new.isEmpty:
                    let index = Int(generator.next() % UInt64(new.count))
                    new[index] = item(diff.identity(new[index]), "changed")
                default: new.reverse()
                }
            }
            let matching = IdentityMatching(old, new, by: diff)
            let oldIDs = diff.identities(old)
            let newIDs = diff.identities(new)
            #expect((matching == nil) == (oldIDs == nil || newIDs == nil), "round \(round): \(old) → \(new)")
            guard let matching, let oldIDs, let newIDs else { continue }
            compared += 1
            var changes: [StateChange] = []
            diff.diffByIdentity(old, new, matching, path: "items", into: &changes)
            #expect(
                changes == reference(diff, old, oldIDs, new, newIDs, path: "items"), "round \(round): \(old) → \(new)")
        }
        #expect(compared > 1000, "most rounds have unique ids: \(compared)")
    }
}
