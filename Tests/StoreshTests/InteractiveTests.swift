import Foundation
import Testing

/// The prompt, driven through a pseudo-terminal.
@Suite("storesh at the prompt", .serialized)
struct InteractiveTests {
    /// libedit puts the terminal back in cooked mode between lines and draws the prompt a
    /// moment before it is raw again; a Ctrl-D sent in that instant is eaten by the tty
    /// driver as cooked-mode end-of-file. No person types that fast; a test can, so it
    /// waits like a person.
    func settle(_ terminal: PseudoTerminal) {
        terminal.pump(milliseconds: 100)
    }

    let history = FileManager.default.temporaryDirectory.appendingPathComponent("storesh-pty-history-\(UUID())").path

    @Test func historyIsRecalledInTheNextRun() throws {
        let first = try PseudoTerminal([], environment: ["STORESH_HISTORY": history])
        #expect(first.expect("counter> "))
        first.type("setCount 7\r")
        #expect(first.expect("setCount 7: state changed"))
        #expect(first.expect("counter> ", after: "setCount 7: state changed"), "the next prompt")
        settle(first)
        first.type("\u{4}")
        #expect(first.exitStatus() == 0, "\(first.transcript)")

        let second = try PseudoTerminal([], environment: ["STORESH_HISTORY": history])
        #expect(second.expect("counter> "))
        let mark = second.mark
        second.type("\u{1B}[A\r")  // up arrow, Enter
        #expect(second.expect("setCount 7: state changed", since: mark), "\(second.transcript)")
    }

    @Test func tabCompletesCommandsAndActions() throws {
        let shell = try PseudoTerminal([], environment: ["STORESH_HISTORY": history])
        #expect(shell.expect("counter> "))
        shell.type("incr\t\r")
        #expect(shell.expect("increment: state changed"), "\(shell.transcript)")
        shell.type(":sta\t\r")
        #expect(shell.expect("count: 1"), "\(shell.transcript)")
    }

    @Test func anEffectFinishingWhileThePromptWaitsIsPrintedAboveIt() throws {
        let shell = try PseudoTerminal(["--plugin", "Auth"], environment: ["STORESH_HISTORY": history])
        #expect(shell.expect("auth> "))
        shell.type("authenticate user: \"bo\", password: \"open sesame\"\r")
        #expect(shell.expect("1 effect started"))
        shell.type("sig")  // half a line, and no Enter: the effect lands meanwhile
        let mark = shell.mark
        #expect(shell.expect("emitted succeed user: \"bo\"", since: mark, timeout: 5), "\(shell.transcript)")
        #expect(shell.expect("auth> sig", since: mark), "the prompt and the half-typed line are drawn again")
        shell.type("nOut\r")
        #expect(shell.expect("signOut: state changed", since: mark), "\(shell.transcript)")
    }

    @Test func ctrlCDropsTheLineAndCtrlDLeaves() throws {
        let shell = try PseudoTerminal([], environment: ["STORESH_HISTORY": history])
        #expect(shell.expect("counter> "))
        settle(shell)
        shell.type("incre")
        shell.pump(milliseconds: 100)
        shell.type("\u{3}")
        #expect(shell.expect("^C"), "\(shell.transcript)")
        shell.type("decrement\r")
        #expect(shell.expect("decrement: state changed"), "\(shell.transcript)")
        #expect(!shell.transcript.contains("increment:"))
        #expect(shell.expect("counter> ", after: "decrement: state changed"), "the next prompt")
        settle(shell)
        shell.type("\u{4}")
        #expect(shell.exitStatus() == 0)
    }

    @Test func aHistoryPathThatIsNotAHistoryFileIsLeftAloneWithAWarning() throws {
        let notLibedit = try temporaryFile("notes.txt", "my notes\n")
        let directory = (notLibedit as NSString).deletingLastPathComponent
        for (path, why) in [
            ("/dev/full", "is a character device, not a regular file"),
            ("/dev/zero", "is a character device, not a regular file"),
            (directory, "is a directory, not a regular file"), (notLibedit, "was not written by libedit"),
        ] {
            let shell = try PseudoTerminal([], environment: ["STORESH_HISTORY": path])
            #expect(shell.expect("storesh: warning: history file \(path) \(why)"), "\(shell.transcript)")
            #expect(shell.expect("counter> "))
            shell.type("increment\r")
            #expect(shell.expect("increment: state changed"), "\(shell.transcript)")
            #expect(shell.expect("counter> ", after: "increment: state changed"))
            settle(shell)
            shell.type("\u{4}")
            #expect(shell.exitStatus() == 0, "\(shell.transcript)")
        }
        #expect(try String(contentsOfFile: notLibedit, encoding: .utf8) == "my notes\n", "the file was not replaced")
    }

    /// libedit's save renamed its new file over the path: a history file reached through a
    /// link became a file of its own, and the file the link named stopped growing.
    @Test func aHistoryFileReachedThroughALinkStaysALink() throws {
        let real = try temporaryFile("history", "_HiStOrY_V2_\nsetCount\\0405\n")
        let link = (real as NSString).deletingLastPathComponent + "/link"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "history")
        let shell = try PseudoTerminal([], environment: ["STORESH_HISTORY": link])
        #expect(shell.expect("counter> "))
        shell.type("increment\r")
        #expect(shell.expect("increment: state changed"), "\(shell.transcript)")
        #expect(shell.expect("counter> ", after: "increment: state changed"))
        settle(shell)
        shell.type("\u{4}")
        #expect(shell.exitStatus() == 0, "\(shell.transcript)")
        var status = stat()
        #expect(lstat(link, &status) == 0 && status.st_mode & S_IFMT == S_IFLNK, "still a link")
        #expect(try String(contentsOfFile: real, encoding: .utf8).contains("increment"), "the file it names grew")
    }

    @Test func aHistoryFileThatCannotBeWrittenIsReportedOnce() throws {
        let directory = URL(fileURLWithPath: try temporaryFile("x", "")).deletingLastPathComponent()
        let missing = directory.appendingPathComponent("gone/history").path  // its directory is removed below
        let shell = try PseudoTerminal([], environment: ["STORESH_HISTORY": missing])
        #expect(shell.expect("counter> "))
        try FileManager.default.removeItem(at: directory.appendingPathComponent("gone"))
        shell.type("increment\r")
        #expect(shell.expect("increment: state changed"))
        shell.type("increment\r")
        #expect(shell.expect("count: 1 → 2"), "\(shell.transcript)")
        #expect(
            shell.transcript.components(separatedBy: "cannot write history file \(missing)").count == 2,
            "reported once: \(shell.transcript)")
    }

    /// libedit truncated the history file and then ignored its write errors: on a full disk
    /// the old entries were lost without a word.
    @Test func aFullDiskKeepsTheHistoryFileWholeAndSaysSoOnce() throws {
        let path = try temporaryFile("history", "_HiStOrY_V2_\nsetCount\\0405\nincrement\n")
        let shell = try PseudoTerminal(
            [],
            environment: [
                "STORESH_HISTORY": path, "LD_PRELOAD": faultShim, "STORESH_FAULT_PATH": path,
                "STORESH_FAULT_AFTER": "20",
            ])
        #expect(shell.expect("counter> "))
        shell.type("decrement\r")
        #expect(shell.expect("decrement: state changed"))
        shell.type("decrement\r")
        #expect(shell.expect("count: -1 → -2"), "\(shell.transcript)")
        #expect(
            shell.transcript.components(separatedBy: "cannot write history file \(path): No space left on device").count
                == 2, "reported once: \(shell.transcript)")
        #expect(
            try String(contentsOfFile: path, encoding: .utf8) == "_HiStOrY_V2_\nsetCount\\0405\nincrement\n",
            "the old history is whole")
        let leftovers = try FileManager.default.contentsOfDirectory(
            atPath: (path as NSString).deletingLastPathComponent
        ).filter { $0.hasSuffix(".tmp") }
        #expect(leftovers.isEmpty, "\(leftovers)")
    }

    @Test func unicodeTypedAtThePromptIsSentExactly() throws {
        // LANG is unset here on purpose: storesh must not depend on the caller's locale.
        let shell = try PseudoTerminal(
            ["--plugin", "Todos"], environment: ["STORESH_HISTORY": history, "LANG": "", "LC_ALL": ""])
        #expect(shell.expect("todos> "))
        shell.type("add title: \"café ✓ 日本 🎉\", priority: 1\r")
        #expect(shell.expect("state changed"), "\(shell.transcript)")
        shell.type(":state todos[0].title\r")
        #expect(shell.expect("\"café ✓ 日本 🎉\""), "\(shell.transcript)")
        // Editing moves by characters: two Ctrl-B (back) over "✓d", then type "-".
        shell.type("todos[\"t1\"].rename \"abc✓def\"")
        shell.type("\u{2}\u{2}\u{2}-\r")
        #expect(shell.expect("\"abc✓d-ef\""), "\(shell.transcript)")
    }

    @Test func ctrlDAtAContinuationPromptCancelsTheStatementOnly() throws {
        let shell = try PseudoTerminal([], environment: ["STORESH_HISTORY": history])
        #expect(shell.expect("counter> "))
        shell.type("setCount(\r")
        #expect(shell.expect("...> "), "\(shell.transcript)")
        settle(shell)
        shell.type("\u{4}")
        #expect(shell.expect("(statement cancelled)"), "\(shell.transcript)")
        #expect(shell.expect("counter> ", after: "(statement cancelled)"), "still in the shell")
        shell.type(":state\r")
        #expect(shell.expect("count: 0"), "\(shell.transcript)")
    }

    @Test func ctrlCStopsALongScriptAndKeepsTheSession() throws {
        // The :state on line 2 says the script is under way before Ctrl-C is pressed.
        let script = try temporaryFile(
            "long.storesh", "increment\n:state\n" + String(repeating: "increment\n", count: 300_000))
        let shell = try PseudoTerminal(["--quiet", "-i", "-f", script], environment: ["STORESH_HISTORY": history])
        #expect(shell.expect("count: 1"), "\(shell.transcript)")
        shell.type("\u{3}")
        #expect(
            shell.expect("error: interrupted (Ctrl-C): the script stops before this line", timeout: 20),
            "\(shell.transcript.suffix(500))")
        #expect(shell.expect("counter> "), "the prompt, with the session")
        settle(shell)
        let mark = shell.mark
        shell.type(":expect count != 300001\r:state\r")
        #expect(shell.expect("count: ", since: mark), "\(shell.transcript.suffix(300))")
        #expect(
            !shell.transcript.contains("expectation failed"),
            "the script did not run to its end: \(shell.transcript.suffix(300))")
    }

    @Test func ctrlCStopsAWait() throws {
        // resetLater fires after two seconds: ample time to press Ctrl-C during the wait.
        let shell = try PseudoTerminal(["--plugin", "Composite"], environment: ["STORESH_HISTORY": history])
        #expect(shell.expect("composite> "))
        shell.type("resetLater\r")
        #expect(shell.expect("1 effect started"), "\(shell.transcript)")
        #expect(shell.expect("composite> ", after: "1 effect started"))
        settle(shell)  // the editor is raw again; keys typed before that can be lost
        shell.type(":wait 10s\r")
        #expect(shell.expect(":wait 10s\r\n"), "the editor took the line: the wait is under way")
        shell.pump(milliseconds: 200)
        shell.type("\u{3}")
        #expect(shell.expect("error: interrupted; 1 effect still in flight"), "\(shell.transcript)")
        #expect(shell.expect("composite> ", after: "still in flight"), "\(shell.transcript)")
    }
}
