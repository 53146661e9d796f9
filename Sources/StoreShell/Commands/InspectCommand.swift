import StoreValue

/// What `:inspect` needs beyond any command's context: the front end's way to serve the
/// inspector's page (storesh's prompt and scripts, `storesh mcp --inspect`). `ShellCore`
/// is the one conformer.
@MainActor
protocol InspectorContext: CommandContext {
    /// Starts the page on a port (nil: any free one) and answers its address; nil where
    /// no front end serves one.
    var startInspector: (@MainActor (_ port: Int?) async throws(ShellError) -> String)? { get }
}

/// `:inspect [PORT]`: the inspector's page, served by the front end.
struct InspectCommand: ShellCommand {
    let name = "inspect"
    let readsOnly = true
    let usage = ":inspect [PORT]"
    let summary =
        "serve the inspector (the session in a browser: actions, effects, states, a slider through time) and print its address"
    let detail = [
        "The page listens on 127.0.0.1 only, at PORT or any free port, and needs the token in the address it prints; once started it runs until storesh ends (:inspect again prints the address). See docs/shell/inspector.md."
    ]

    @MainActor func run(_ core: ShellCore, _ arguments: CommandArguments, origin: LineOrigin) async -> Bool {
        await inspect(arguments, origin: origin, in: core)
    }

    /// Starts the page (or finds it started) and prints its address.
    @MainActor private func inspect(
        _ arguments: CommandArguments, origin: LineOrigin, in context: some InspectorContext
    ) async -> Bool {
        let args = arguments.words
        guard args.count <= 1 else { return context.fail("usage: :inspect [PORT]", origin: origin) }
        var port: Int?
        if let word = args.first {
            guard let number = Int(word), (1...65_535).contains(number) else {
                return context.fail(
                    "the port must be a number from 1 to 65535, not '\(word)'", origin: origin, in: arguments, at: 0)
            }
            port = number
        }
        guard let start = context.startInspector else {
            return context.fail(
                "the inspector is not available here (storesh serves it at its prompt, in scripts and in storesh mcp --inspect)",
                origin: origin)
        }
        do throws(ShellError) {
            let address = try await start(port)
            context.output(
                .report(kind: "inspector", lines: ["inspector: \(address)"], data: .record(["url": .string(address)])))
            return true
        } catch {
            return context.fail(error.message, origin: origin)
        }
    }
}
