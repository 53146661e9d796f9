import StoreValue

/// `:inspect`: the inspector's page in a browser, served by the front end (storesh's
/// prompt and scripts; `storesh mcp --inspect`).
extension ShellCore {
    static let inspectCommands: [ShellCommand] = [
        ShellCommand(
            name: "inspect", usage: ":inspect [PORT]",
            summary:
                "serve the inspector (the session in a browser: actions, effects, states, a slider through time) and print its address",
            detail: [
                "The page listens on 127.0.0.1 only, at PORT or any free port, and needs the token in the address it prints; once started it runs until storesh ends (:inspect again prints the address). See docs/shell/inspector.md."
            ]
        ) { core, args, origin in
            await core.inspect(args, origin: origin)
        }
    ]

    func inspect(_ args: [String], origin: LineOrigin) async -> Bool {
        guard args.count <= 1 else { return fail("usage: :inspect [PORT]", origin: origin) }
        var port: Int?
        if let word = args.first {
            guard let number = Int(word), (1...65_535).contains(number) else {
                return failInArguments(
                    "the port must be a number from 1 to 65535, not '\(word)'", origin: origin, at: 0)
            }
            port = number
        }
        guard let start = startInspector else {
            return fail(
                "the inspector is not available here (storesh serves it at its prompt, in scripts and in storesh mcp --inspect)",
                origin: origin)
        }
        do throws(ShellError) {
            let address = try await start(port)
            output(
                .report(kind: "inspector", lines: ["inspector: \(address)"], data: .record(["url": .string(address)])))
            return true
        } catch {
            return fail(error.message, origin: origin)
        }
    }
}
