import StoreHost
import StoreValue

/// What the commands that change which actions make the timeline (`:branch`, `:skip`,
/// `:unskip`) need beyond any command's context: the journal written ahead of the change
/// (and taken back when it fails), and the state rebuilt after it. `ShellCore` is the one
/// conformer.
@MainActor
protocol TimelineContext: CommandContext {
    /// Writes `record` to the journal before the change it describes; false (reported)
    /// when it could not be written, and the change must not be made.
    func journalAhead(_ record: JournalRecord, origin: LineOrigin, text: String?) -> Bool
    /// Takes back the record written ahead of a change that then failed.
    func retractJournal()
    /// Recomputes `session`'s state after `target` actions, from the nearest snapshot.
    func rebuild(_ session: Session, to target: Int, interruptible: Bool, report: Bool) throws(ShellError)
}

/// `:branches`: the timelines set aside.
struct BranchesCommand: ShellCommand {
    let name = "branches"
    let readsOnly = true
    let usage = ":branches"
    let summary = "timelines set aside when a new action replaced undone ones"
    let detail = [
        "After :goto or :undo, a new action starts a new timeline; the old one, with its undone actions, is kept as a branch (an undo tree)."
    ]

    @MainActor func run(_ core: ShellCore, _ arguments: CommandArguments, origin: LineOrigin) async -> Bool {
        listBranches(origin: origin, in: core)
    }

    /// `:branches`: the timelines set aside when actions were sent after a jump back.
    @MainActor private func listBranches(origin: LineOrigin, in context: some CommandContext) -> Bool {
        guard let session = context.current, let history = context.recorder.histories[session.model.qualifiedName]
        else {
            return context.fail(context.noCurrentModel, origin: origin)
        }
        let lines = history.branches.enumerated().map { index, branch in
            let undone = branch.entries[branch.fork...].prefix(3).map { $0.text(in: session.model) }.joined(
                separator: ", ")
            return
                "branch \(index + 1): \(branch.undone) action\(branch.undone == 1 ? "" : "s") after #\(history.shown(branch.fork)): \(undone)\(branch.undone > 3 ? ", …" : "")"
        }
        context.output(
            .info(
                kind: "branches",
                lines: lines.isEmpty
                    ? ["no branches: undone actions are set aside here when a new action replaces them"] : lines))
        return true
    }
}

/// `:branch N`: brings back a timeline set aside.
struct BranchCommand: ShellCommand {
    let name = "branch"
    let usage = ":branch N"
    let summary = "bring back branch N (the current timeline is set aside in its place)"
    let detail = ["The state becomes the state at the end of the branch; ':branch N' again swaps back."]

    @MainActor func run(_ core: ShellCore, _ arguments: CommandArguments, origin: LineOrigin) async -> Bool {
        switchBranch(arguments.words, origin: origin, in: core)
    }

    /// `:branch N`: brings back a timeline set aside, at its end; the current one is set
    /// aside in its place (so `:branch N` again goes back).
    @MainActor private func switchBranch(_ args: [String], origin: LineOrigin, in context: some TimelineContext) -> Bool
    {
        guard let session = context.current, let history = context.recorder.histories[session.model.qualifiedName]
        else {
            return context.fail(context.noCurrentModel, origin: origin)
        }
        guard !history.branches.isEmpty else {
            return context.fail(
                "there are no branches; a new action after :goto or :undo sets the undone ones aside as one",
                origin: origin)
        }
        guard let text = args.first, args.count == 1, let number = Int(text),
            (1...history.branches.count).contains(number)
        else {
            return context.fail(
                "usage: :branch N, with N from 1 to \(history.branches.count) (:branches lists them)", origin: origin)
        }
        guard
            context.journalAhead(.branch(model: session.model.qualifiedName, number: number), origin: origin, text: nil)
        else {
            return false
        }
        let saved = (entries: history.entries, position: history.position)
        history.switchToBranch(number)
        do throws(ShellError) {
            try context.rebuild(session, to: history.position, interruptible: false, report: true)
            return true
        } catch {
            history.switchToBranch(number)  // the same move again puts the timelines back
            history.move(to: saved.position)
            context.retractJournal()
            return context.fail(error.message, origin: origin)
        }
    }
}

/// `:skip N` and `:unskip N`: the history recomputed without (or with again) one action.
struct SkipCommand: ShellCommand {
    let name: String
    let usage: String
    let summary: String
    let detail: [String] = []
    /// Whether the action is left out (`:skip`) or put back (`:unskip`).
    let skips: Bool

    static let skip = SkipCommand(
        name: "skip", usage: ":skip N",
        summary: "recompute the history without action N, as Redux DevTools' toggle does", skips: true)
    static let unskip = SkipCommand(
        name: "unskip", usage: ":unskip N", summary: "put a skipped action back", skips: false)

    @MainActor func run(_ core: ShellCore, _ arguments: CommandArguments, origin: LineOrigin) async -> Bool {
        toggle(arguments.words, skipped: skips, origin: origin, in: core)
    }

    /// Skips action N (or puts it back) and rebuilds the state from there.
    @MainActor private func toggle(
        _ args: [String], skipped: Bool, origin: LineOrigin, in context: some TimelineContext
    ) -> Bool {
        let key = context.current?.model.qualifiedName ?? ""
        guard let session = context.current, let history = context.recorder.histories[key] else {
            return context.fail(context.noCurrentModel, origin: origin)
        }
        let count = history.entries.count
        guard count > 0 else {
            return context.fail("there is no history yet: nothing to \(skipped ? "skip" : "unskip")", origin: origin)
        }
        guard let text = args.first, let shownNumber = Int(text), args.count == 1,
            (1...count).contains(history.stored(shownNumber))
        else {
            return context.fail(
                "usage: :\(skipped ? "skip" : "unskip") N, with N from \(history.dropped + 1) to \(history.shown(count))",
                origin: origin)
        }
        let number = history.stored(shownNumber)
        let model = session.model.qualifiedName
        guard
            context.journalAhead(
                skipped ? .skip(model: model, index: shownNumber) : .unskip(model: model, index: shownNumber),
                origin: origin, text: nil)
        else { return false }
        let was = history.entries[number - 1].skipped
        history.setSkipped(skipped, at: number - 1)
        do throws(ShellError) {
            try context.rebuild(session, to: history.position, interruptible: false, report: true)
            return true
        } catch {
            history.setSkipped(was, at: number - 1)
            context.retractJournal()
            return context.fail(error.message, origin: origin)
        }
    }
}
