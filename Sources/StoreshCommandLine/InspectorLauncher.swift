package import ArgumentParser
import StoreHost
import StoreInspector
package import StoreService
package import StoreShell

/// `--inspect [PORT]`, for the shell and `storesh mcp`.
package struct InspectOptions: ParsableArguments {
    package init() {}

    @Option(
        name: .customLong("inspect"),
        help: ArgumentHelp(
            "Serve the inspector (the session in a browser) on 127.0.0.1 at PORT, or any free port when PORT is left out, and print its address with its token.",
            valueName: "PORT"))
    package var port: Int?

    package func validate() throws {
        if let port, !(0...65_535).contains(port) {
            throw ValidationError("--inspect takes a port from 1 to 65535 (or none), not \(port)")
        }
    }

    /// The arguments with `--inspect` given a port of 0 (any) where none follows it, so
    /// the option parses as `--inspect [PORT]`. A value of `-c` or `-f` is left alone.
    package static func normalized(_ arguments: [String]) -> [String] {
        var result: [String] = []
        for (index, argument) in arguments.enumerated() {
            result.append(argument)
            let isValue = index > 0 && ["-c", "-f"].contains(arguments[index - 1])
            guard argument == "--inspect", !isValue else { continue }
            if index + 1 >= arguments.count || Int(arguments[index + 1]) == nil { result.append("0") }
        }
        return result
    }
}

/// The inspector of one storesh session: made on demand (`--inspect`, `:inspect`) over the
/// session's `SessionService`, which it makes if the front end has none. Lines the front
/// end runs itself (the prompt, scripts) go through `run`, so they and the page's
/// operations take turns.
@MainActor
package final class InspectorLauncher {
    package let core: ShellCore
    package private(set) var service: SessionService?
    private var server: InspectorServer?
    /// Where to say the address (standard error under `storesh mcp`).
    package let announce: (String) -> Void

    package init(core: ShellCore, service: SessionService? = nil, announce: @escaping (String) -> Void) {
        self.core = core
        self.service = service
        self.announce = announce
        core.startInspector = { [weak self] (port: Int?) async throws(ShellError) -> String in
            guard let self else { throw ShellError("the inspector is not available", origin: .prompt) }
            return try await self.start(port: port ?? 0)
        }
    }

    /// Starts the inspector (once; again answers the same address).
    package func start(port: Int) async throws(ShellError) -> String {
        if let server, let address = server.address { return address }
        let service = self.service ?? SessionService(core: core)
        self.service = service
        let server = InspectorServer(service: service)
        let announce = self.announce
        server.endedUnasked = {
            announce("inspector: its server process ended; the page is gone. ':inspect' starts a new one\n")
        }
        let address = try await server.start(port: port)
        self.server = server
        return address
    }

    /// Starts it for `--inspect`: the address is said, or the reason it cannot start.
    package func startFromOptions(_ options: InspectOptions) async -> Bool {
        guard let port = options.port else { return true }
        do throws(ShellError) {
            announce("inspector: \(try await start(port: port))\n")
            return true
        } catch {
            StandardStreams.error("storesh: \(error.message)\n")
            return false
        }
    }

    /// Runs `work` (lines the front end runs itself) in turn with the page's operations;
    /// with no inspector started, just runs it.
    package func run<Result>(_ work: () async -> Result) async -> Result {
        guard let service else { return await work() }
        var result: Result?
        await service.runOutside { result = await work() }
        guard let result else { preconditionFailure("runOutside runs its work once") }
        return result
    }
}
