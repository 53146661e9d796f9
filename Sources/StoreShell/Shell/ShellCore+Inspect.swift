import StoreValue

/// `:inspect`: the inspector's page in a browser, served by the front end (storesh's
/// prompt and scripts; `storesh mcp --inspect`).
extension ShellCore {
    func inspect(_ arguments: CommandArguments, origin: LineOrigin) async -> Bool {
        let args = arguments.words
        guard args.count <= 1 else { return fail("usage: :inspect [PORT]", origin: origin) }
        var port: Int?
        if let word = args.first {
            guard let number = Int(word), (1...65_535).contains(number) else {
                return fail(
                    "the port must be a number from 1 to 65535, not '\(word)'", origin: origin, in: arguments, at: 0)
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
