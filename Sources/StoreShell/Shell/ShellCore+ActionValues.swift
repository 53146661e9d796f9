import Dispatch
package import StoreHost
import StoreValue

extension ShellCore {
    /// Sends an action given as values (an MCP tool's arguments, an inspector form's), not
    /// as text: it joins a typed line's walk once the line is parsed. The same binding
    /// checks with the same messages (`ActionBinding.bind(_:to:)`), and the same history,
    /// journal, watches and output; the line shown and recorded is the action's text
    /// written from the values. Returns false when it failed (the error has been reported).
    @discardableResult
    package func execute(_ call: ActionValues, origin: LineOrigin = .prompt) -> Bool {
        let inProcessWorld = beginLine()
        defer { endLine(inProcessWorld: inProcessWorld) }
        let started = debugging.timer ? DispatchTime.now().uptimeNanoseconds : 0
        guard let session = current else {
            return lineDone(
                call.name, kind: .action, succeeded: fail(noCurrentModel, origin: origin), origin: origin,
                started: started)
        }
        let bound: (action: ActionDescriptor, arguments: [Value], text: String)
        do throws(ActionValues.Refusal) {
            bound = try ActionBinding.bind(call, to: session.model)
        } catch {
            let failed = fail(error.message, origin: origin, text: error.text, offset: error.offset)
            return lineDone(error.text, kind: .action, succeeded: failed, origin: origin, started: started)
        }
        let sent = send((bound.action, bound.arguments), line: bound.text, to: session, origin: origin)
        return lineDone(bound.text, kind: .action, succeeded: sent, origin: origin, started: started)
    }

    /// Runs a command given as values (an MCP tool's arguments, an inspector form's)
    /// through its typed entry point `body`, as a typed line would run: the same world,
    /// answers and recovery around it, and the same end of a line (the tape `:save-test`
    /// reads, breakpoints, watches, `:timer`) with `text`, the command written from the
    /// values as it would be typed. Returns false when it failed (the error was reported).
    @discardableResult
    package func execute(command text: String, origin: LineOrigin = .prompt, _ body: () async -> Bool) async -> Bool {
        let inProcessWorld = beginLine()
        defer { endLine(inProcessWorld: inProcessWorld) }
        let started = debugging.timer ? DispatchTime.now().uptimeNanoseconds : 0
        let succeeded = await body()
        await deliverDueAnswers()
        return lineDone(text, kind: .command, succeeded: succeeded, origin: origin, started: started)
    }
}
