import HostTestSupport
import Testing

@testable import StoreValue

/// A record with padding between `done` and `priority` (a Bool before an Int).
private struct Task: Codable, Equatable {
    var id: String
    var title: String
    var done = false
    var priority = 0
}

private enum Mark: Codable, Equatable {
    case none
    case flag(Bool, Int)
    case note(String)
}

/// A list encoded through a single-value container by a type that is not Equatable.
private struct Column: Encodable {
    var tasks: [Task]
    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(tasks)
    }
}

/// A place whose list changes its element type: an enum, not `Equatable`, that encodes its
/// payload alone, so the list's node is the enum's.
private enum Payload: Encodable {
    case ids([Int])
    case names([String])

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .ids(let ids): try container.encode(ids)
        case .names(let names): try container.encode(names)
        }
    }
}

/// `==` by id alone, as some app models write it: an edit it does not see is no change to it.
private struct ByID: Codable, Equatable {
    var id: Int
    var label: String
    static func == (a: ByID, b: ByID) -> Bool { a.id == b.id }
}

/// A list of lists: a group's tasks are taken by the next encoding when few change.
private struct Group: Codable, Equatable {
    var name: String
    var tasks: [Task]
}

private struct Columns: Encodable {
    var left: Column
    var right: Column
}

@Suite("Long lists are compared by their elements' bytes, and no change is missed")
struct ListComparisonTests {
    private func tasks(_ count: Int) -> [Task] {
        (0..<count).map { Task(id: "t\($0)", title: "a title long enough to live on the heap \($0)", priority: $0 % 3) }
    }

    /// Copies every element into a new buffer, field by field: padding bytes are whatever
    /// the new memory held, so only the fields' bytes can match.
    private func recopied(_ list: [Task]) -> [Task] {
        var copy: [Task] = []
        copy.reserveCapacity(list.count)
        for task in list { copy.append(Task(id: task.id, title: task.title, done: task.done, priority: task.priority)) }
        return copy
    }

    @Test func theLayoutLeavesOutPaddingAndKeepsEveryField() {
        let ranges = ByteLayout(of: Task.self).ranges
        let covered = ranges.reduce(0) { $0 + $1.count }
        #expect(covered == 16 + 16 + 1 + 8, "two strings, a Bool and an Int: \(ranges)")
        #expect(ranges.allSatisfy { $0.offset + $0.count <= MemoryLayout<Task>.size })
        #expect(ByteLayout(of: Mark.self).ranges.map(\.count) == [MemoryLayout<Mark>.size], "an enum is all data")
        #expect(ByteLayout(of: Int.self).ranges.map(\.count) == [8])
    }

    /// The indices found are those whose elements' data bytes differ, whatever blocks the
    /// raw comparison passes over: lists of every length around the block size, changed in
    /// a few places (the first, the last, block edges) or recopied (padding that differs).
    @Test func differingIndicesAreExactlyTheElementsWhoseDataDiffers() {
        let layout = ByteLayout(of: Task.self)
        #expect(MemoryLayout<Task>.stride == 48, "the lengths below sit around a block's 42 tasks")
        var generator = SystemRandomNumberGenerator()
        for count in [0, 1, 2, 41, 42, 43, 84, 85, 200, 1000] {  // 42 tasks of 48 bytes to a block
            let before = tasks(count)
            for round in 0..<20 {
                var after = round % 5 == 0 ? recopied(before) : before
                let changes = count == 0 ? 0 : Int.random(in: 0...min(4, count), using: &generator)
                for _ in 0..<changes {
                    let index = [
                        0, count - 1, min(41, count - 1), min(42, count - 1),
                        Int.random(in: 0..<count, using: &generator),
                    ].randomElement(using: &generator)!
                    after[index].priority += 1
                }
                let expected = (0..<count).filter { index in
                    before.withUnsafeBufferPointer { a in
                        after.withUnsafeBufferPointer { b in
                            !layout.sameBytes(a.baseAddress! + index, b.baseAddress! + index)
                        }
                    }
                }
                let found = before.withUnsafeBufferPointer { a in
                    after.withUnsafeBufferPointer { b in
                        count == 0 ? [] : layout.differingIndices(a.baseAddress!, b.baseAddress!, count: count)
                    }
                }
                #expect(found == expected, "\(count) elements, \(changes) changed")
            }
        }
    }

    /// Elements whose stride is not a multiple of 8 (12 and 3 bytes): a block's words hold
    /// parts of two elements, and a change in either is found.
    private struct Triple: Equatable { var a: Int32, b: Int32, c: Int32 }
    private struct Bytes3: Equatable { var a: UInt8, b: UInt8, c: UInt8 }

    @Test func elementsThatStraddleWordsAreComparedWhole() {
        func check<T>(_ make: (Int) -> T, _ change: (inout T) -> Void) {
            let layout = ByteLayout(of: T.self)
            for count in [0, 1, 7, 8, 9, 100, 170, 171, 172, 683, 684, 685, 1500, 2000] {
                let before = (0..<count).map(make)
                for index in Set([0, count / 2, count - 1, 7, 8, 170, 171, 682, 683, 684])
                where index >= 0 && index < count {
                    var after = before
                    change(&after[index])
                    let found = before.withUnsafeBufferPointer { a in
                        after.withUnsafeBufferPointer { b in
                            layout.differingIndices(a.baseAddress!, b.baseAddress!, count: count)
                        }
                    }
                    #expect(found == [index], "\(T.self): \(count) elements, \(index) changed")
                }
                let unchanged = before.withUnsafeBufferPointer { a in
                    before.map { $0 }.withUnsafeBufferPointer { b in
                        count == 0 ? [] : layout.differingIndices(a.baseAddress!, b.baseAddress!, count: count)
                    }
                }
                #expect(unchanged.isEmpty)
            }
        }
        #expect(MemoryLayout<Triple>.stride == 12 && MemoryLayout<Bytes3>.stride == 3)
        check({ Triple(a: Int32($0), b: 1, c: 2) }, { $0.c += 1 })
        check({ Triple(a: Int32($0), b: 1, c: 2) }, { $0.a += 1 })
        check({ Bytes3(a: UInt8($0 % 256), b: 1, c: 2) }, { $0.c &+= 1 })
        check({ Bytes3(a: UInt8($0 % 256), b: 1, c: 2) }, { $0.a &+= 1 })
    }

    /// Ten bytes: one whole word, then two bytes that are compared one by one.
    private struct Flags: Codable, Equatable {
        var count: Int
        var on = false
        var off = false
    }

    @Test func bytesPastTheLastWholeWordAreCompared() throws {
        #expect(MemoryLayout<Flags>.size == 10)
        let tracker = ChangeTracker(smallState: 0)
        var list = (0..<100).map { Flags(count: $0) }
        _ = try tracker.snapshot(of: list)
        list[40].off = true
        #expect(try tracker.changes(of: list) == [.set(path: [.index(40), .field("off")], value: .bool(true))])
        list[41].on = true
        #expect(try tracker.changes(of: list) == [.set(path: [.index(41), .field("on")], value: .bool(true))])
    }

    @Test func aToggleInARecopiedListIsOneChange() throws {
        let tracker = ChangeTracker(smallState: 0)
        var list = tasks(300)
        _ = try tracker.snapshot(of: list)
        list = recopied(list)
        #expect(try tracker.changes(of: list) == [], "copied field by field, nothing changed")
        list[150].done = true
        list = recopied(list)
        #expect(try tracker.changes(of: list) == [.set(path: [.index(150), .field("done")], value: .bool(true))])
        list[299].priority = 9
        #expect(try tracker.changes(of: list) == [.set(path: [.index(299), .field("priority")], value: .int(9))])
    }

    /// An append to a long list (the commonest change of a to-do list) is one splice at the
    /// end, as before the old nodes were taken instead of copied; appends mixed with other
    /// edits still give the state.
    @Test func appendsAreOneSpliceAtTheEndAndRoundTrip() throws {
        let tracker = ChangeTracker(smallState: 0)
        var list = tasks(100)
        var shown = try tracker.snapshot(of: list)
        list.append(Task(id: "a1", title: "one more"))
        let patches = try #require(try tracker.changes(of: list))
        #expect(patches == [.splice(path: [], at: 100, removing: 0, inserting: [try ValueEncoder().encode(list[100])])])
        for patch in patches { try patch.apply(to: &shown) }
        var generator = SplitMix(seed: 5)
        for round in 0..<200 {
            switch generator.next() % 4 {
            case 0: list.append(Task(id: "r\(round)", title: "appended"))
            case 1:
                list.append(contentsOf: [Task(id: "x\(round)", title: "two"), Task(id: "y\(round)", title: "at once")])
            case 2: list[Int(generator.next() % UInt64(list.count))].done.toggle()
            default: list.removeLast()
            }
            try expectChangesRoundTrip(tracker, list, shown: &shown, round: "round \(round)")
        }
    }

    @Test func equalTextInAnotherBufferIsNoChange() throws {
        let tracker = ChangeTracker(smallState: 0)
        var list = tasks(100)
        _ = try tracker.snapshot(of: list)
        // Same characters, new storage: the bytes differ, `==` says equal.
        for index in list.indices { list[index].title = String(decoding: Array(list[index].title.utf8), as: UTF8.self) }
        #expect(try tracker.changes(of: list) == [])
        list[7].title += "!"
        #expect(
            try tracker.changes(of: list) == [.set(path: [.index(7), .field("title")], value: .string(list[7].title))])
    }

    @Test func listsOfEnumsAndOfScalarsFindEveryChange() throws {
        let tracker = ChangeTracker(smallState: 0)
        var marks: [Mark] = (0..<100).map { $0 % 3 == 0 ? .none : $0 % 3 == 1 ? .flag(false, $0) : .note("n\($0)") }
        _ = try tracker.snapshot(of: marks)
        marks[4] = .flag(true, 4)
        marks[5] = .none
        let patches = try #require(try tracker.changes(of: marks))
        #expect(patches.map(\.path) == [[.index(4), .field("flag"), .field("_0")], [.index(5)]], "\(patches)")
        var numbers = Array(0..<200)
        let numberTracker = ChangeTracker(smallState: 0)
        _ = try numberTracker.snapshot(of: numbers)
        numbers[199] = -1
        #expect(try numberTracker.changes(of: numbers) == [.set(path: [.index(199)], value: .int(-1))])
    }

    /// A list whose few changed elements were replaced in the old list's own array of
    /// nodes: later changes still find every element, wrapped or not.
    @Test func listsInsideWrappersKeepFindingTheirChanges() throws {
        let tracker = ChangeTracker(smallState: 0)
        var columns = Columns(left: Column(tasks: tasks(100)), right: Column(tasks: tasks(80)))
        var shown = try tracker.snapshot(of: columns)
        columns.left.tasks[3].done = true
        #expect(
            try tracker.changes(of: columns) == [
                .set(path: [.field("left"), .index(3), .field("done")], value: .bool(true))
            ])
        columns.left.tasks[3].done = false
        columns.right.tasks[79].priority = 5
        #expect(
            try tracker.changes(of: columns) == [
                .set(path: [.field("left"), .index(3), .field("done")], value: .bool(false)),
                .set(path: [.field("right"), .index(79), .field("priority")], value: .int(5)),
            ])
        shown = try ValueEncoder().encode(columns)
        var generator = SplitMix(seed: 5)
        for round in 0..<200 {
            let index = Int(generator.next() % 80)
            if generator.next() % 2 == 0 {
                columns.left.tasks[index].done.toggle()
            } else {
                columns.right.tasks[index].priority += 1
            }
            try expectChangesRoundTrip(tracker, columns, shown: &shown, round: "round \(round)")
        }
    }

    /// Sorts, reversals, insertions and removals move elements without changing them: the
    /// moved ones keep their old encodings, and what the changes give is still the state —
    /// in short lists (matched by their bytes too) as in long ones.
    @Test(arguments: [10, 24, 63, 200])
    func movedElementsRoundTrip(length: Int) throws {
        var generator = SplitMix(seed: 23)
        let tracker = ChangeTracker(smallState: 0)
        var list = tasks(length)
        var shown = try tracker.snapshot(of: list)
        for round in 0..<120 {
            switch generator.next() % 6 {
            case 0: list.reverse()
            case 1: list.sort { ($0.priority, $0.id) < ($1.priority, $1.id) }
            case 2: list.insert(Task(id: "n\(round)", title: "new"), at: Int(generator.next() % UInt64(list.count + 1)))
            case 3 where list.count > max(length / 2, 8): list.remove(at: Int(generator.next() % UInt64(list.count)))
            case 4: list = Array(list[7...] + list[..<7])  // rotated: every element moved
            default: list.shuffle(using: &generator)
            }
            if round % 5 == 0 { list[Int(generator.next() % UInt64(list.count))].done.toggle() }
            if round % 7 == 0 { list = recopied(list) }  // equal elements, other bytes
            try expectChangesRoundTrip(tracker, list, shown: &shown, round: "\(length) long, round \(round)")
        }
    }

    /// How one element type's bytes are compared is never used for another's list at the
    /// same place: `[Int]`'s layout compares a string's first eight bytes, the same in
    /// `name-0001` and `name-0002`, and would take the reversed names for the old ones.
    @Test(arguments: [10, 100])
    func aListOfAnotherTypeAtTheSamePlaceIsComparedByItsOwnLayout(length: Int) throws {
        let ids = Array(0..<length)
        let names = ids.map { "name-" + String(repeating: "0", count: 4 - String($0).count) + String($0) }
        let tracker = ChangeTracker(smallState: 0)
        var shown = try tracker.snapshot(of: Payload.ids(ids))
        let steps: [Payload] = [
            .ids(ids.reversed()), .names(names), .names(names.reversed()), .names(names), .ids(ids),
            .ids(ids.reversed()), .names(names.reversed()), .names(names),
        ]
        for (round, payload) in steps.enumerated() {
            try expectChangesRoundTrip(tracker, payload, shown: &shown, round: "\(length) long, step \(round)")
        }
    }

    /// Whole reads between changes (explore reads the state whole after every step) are
    /// encoded against the last tree: each is the state, and the changes after it are
    /// worked out from it — through sorts, toggles, appends and removals, short and long.
    @Test(arguments: [12, 150])
    func snapshotsBetweenChangesAreTheStateAndTheNextBaseline(length: Int) throws {
        var generator = SplitMix(seed: 31)
        let tracker = ChangeTracker(smallState: 0)
        var list = tasks(length)
        var shown = try tracker.snapshot(of: list)
        for round in 0..<300 {
            switch generator.next() % 5 {
            case 0: list.sort { ($0.priority, $0.id) > ($1.priority, $1.id) }
            case 1: list.sort { $0.id < $1.id }
            case 2: list[Int(generator.next() % UInt64(list.count))].done.toggle()
            case 3: list.append(Task(id: "a\(round)", title: "added", priority: round % 3))
            default: if list.count > length { list.remove(at: Int(generator.next() % UInt64(list.count))) }
            }
            if generator.next() % 3 == 0 {
                shown = try tracker.snapshot(of: list)
                #expect(shown == (try ValueEncoder().encode(list)), "\(length) long, round \(round): the read")
            } else {
                try expectChangesRoundTrip(tracker, list, shown: &shown, round: "\(length) long, round \(round)")
            }
        }
    }

    /// An old list whose nodes a new one took is empty afterwards: where a splice's ends are
    /// compared, it is not the same as an empty list (the host was told to insert the
    /// changed list before the old one, and showed `[[5, 7], [5, 6]]`).
    @Test func anOldListWhoseNodesWereTakenIsNoEmptyList() throws {
        let tracker = ChangeTracker(smallState: 0)
        var shown = try tracker.snapshot(of: [[5, 6]])
        try expectChangesRoundTrip(tracker, [[5, 7], []], shown: &shown, round: "one element changed, one list added")
        try expectChangesRoundTrip(tracker, [[5, 7], [], [1]], shown: &shown, round: "then another")
    }

    /// The whole read `--check-changes` compares the changes with shares none of their
    /// choices of what to keep: an edit `==` does not see is missed by the changes, and the
    /// read right after them shows it.
    @Test func aWholeReadAfterChangesIsEncodedAfresh() throws {
        let tracker = ChangeTracker(smallState: 0)
        var list = (0..<10).map { ByID(id: $0, label: "a") }
        _ = try tracker.snapshot(of: list)
        list[3].label = "b"
        #expect(try tracker.changes(of: list) == [], "the changes trust the model's ==")
        #expect(try tracker.snapshot(of: list) == (try ValueEncoder().encode(list)), "the check's read does not")
    }

    /// Groups of tasks, edited, reordered and read whole in turn: nodes a whole read kept
    /// from the last tree (a list that took another's nodes, moved inside its parent list)
    /// give the right changes later.
    @Test func wholeReadsOfNestedListsKeepTheChangesRight() throws {
        var generator = SplitMix(seed: 47)
        let tracker = ChangeTracker(smallState: 0)
        var groups = (0..<20).map { Group(name: "g\($0)", tasks: tasks(3 + $0 % 4)) }
        var shown = try tracker.snapshot(of: groups)
        for round in 0..<300 {
            let group = Int(generator.next() % UInt64(groups.count))
            switch generator.next() % 4 {
            case 0: groups[group].tasks[Int(generator.next() % UInt64(groups[group].tasks.count))].done.toggle()
            case 1:
                for _ in 0..<5 { groups.swapAt(group, Int(generator.next() % UInt64(groups.count))) }
            case 2: groups[group].tasks.append(Task(id: "n\(round)", title: "new"))
            default: if groups[group].tasks.count > 1 { groups[group].tasks.removeLast() }
            }
            if generator.next() % 3 == 0 {
                shown = try tracker.snapshot(of: groups)
                #expect(shown == (try ValueEncoder().encode(groups)), "round \(round): the read")
            } else {
                try expectChangesRoundTrip(tracker, groups, shown: &shown, round: "round \(round)")
            }
        }
    }

    /// Random edits of a long list, each compared with a whole encoding: what the changes
    /// give is the state, whichever way its elements were copied.
    @Test func randomEditsOfALongListRoundTrip() throws {
        var generator = SplitMix(seed: 11)
        let tracker = ChangeTracker(smallState: 0)
        var list = tasks(120)
        var shown = try tracker.snapshot(of: list)
        for round in 0..<300 {
            let index = Int(generator.next() % UInt64(list.count))
            switch generator.next() % 5 {
            case 0: list[index].done.toggle()
            case 1: list[index].priority += 1
            case 2: list[index].title = "retitled \(generator.next() % 10)"
            case 3: list = recopied(list)
            default: list.swapAt(index, Int(generator.next() % UInt64(list.count)))
            }
            try expectChangesRoundTrip(tracker, list, shown: &shown, round: "round \(round)")
        }
    }
}
extension SplitMix: RandomNumberGenerator {}
