import HostTestSupport
import StoreHost
import StoreShell

/// A shell core on a virtual clock whose output is collected as formatted text.
@MainActor
final class ShellHarness {
    let clock = VirtualClock()
    let core: ShellCore
    var outputs: [ShellOutput] = []
    var formatter = OutputFormatter(format: .tree)

    init(
        plugins: [String] = ["Counter"], historyLimit: Int? = History.defaultLimit,
        isolation: PluginHost.Isolation = .inProcess
    ) throws {
        let host = makeHost(clock: clock)
        host.isolation = isolation
        var collected: [ShellOutput] = []
        core = ShellCore(host: host) { collected.append($0) }
        core.recorder.historyLimit = historyLimit
        core.output = { [unowned self] in self.outputs.append($0) }
        _ = collected
        for plugin in plugins { try host.load(plugin) }
        if let first = host.plugins.first?.models.first { try core.use(first.qualifiedName) }
    }

    /// Runs lines and returns the text they printed.
    func run(_ lines: String...) async -> [String] {
        outputs.removeAll()
        for line in lines { await core.execute(line, origin: LineOrigin(file: "t.storesh", line: 1)) }
        return outputs.flatMap(formatter.lines(for:))
    }
}
