import Foundation
package import StoreHost
package import StoreValue
@_exported import TestSupport
package import Testing

/// The build directory, where `swift build`/`swift test` put the example plugins.
package let buildDirectory: String = {
    // The test bundle lives in .build/<config>/ beside the plugin libraries.
    let bundle = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
    var url = bundle.resolvingSymlinksInPath().deletingLastPathComponent()
    while !url.path.hasSuffix("/")
        && !FileManager.default.fileExists(atPath: url.appendingPathComponent("libStoreshExampleCCounter.so").path)
        && url.path != "/"
    {
        url.deleteLastPathComponent()
    }
    return url.path
}()

@MainActor
package func makeHost(clock: (any ShellClock)? = nil) -> PluginHost {
    PluginHost(clock: clock ?? VirtualClock(), searchPath: [buildDirectory])
}

/// A session of `model` from plugin `plugin`, on a virtual clock, recording its events.
@MainActor
package final class Harness {
    package let clock = VirtualClock()
    package let host: PluginHost
    package let session: Session
    package var events: [SessionEvent] = []

    package init(plugin: String, model: String) throws {
        host = makeHost(clock: clock)
        try host.load(plugin)
        session = try Session(model: host.model(named: model), host: host)
        session.onEvent = { [unowned self] in self.events.append($0) }
    }

    /// Effect events as short strings: "started 1 authenticate", "emitted 1 succeed(...)".
    package var effectLog: [String] {
        events.compactMap { event in
            guard case .effect(let record) = event else { return nil }
            let detail = record.label ?? record.action ?? record.message
            return "\(record.kind) \(record.effect)" + (detail.map { " \($0)" } ?? "")
        }
    }

    /// Actions effects applied.
    package var applied: [String] {
        events.compactMap { event in
            if case .applied(let action, _, _) = event { return action }
            return nil
        }
    }

    /// Waits for an effect to ask for a timer, then moves virtual time forward.
    package func advance(milliseconds: Int64) async {
        await eventually { self.clock.nextDeadline != nil }
        clock.advance(by: milliseconds * 1_000_000)
    }
}

/// A small seeded generator, so the random cases are the same on every run.
package struct SplitMix {
    package var state: UInt64
    package init(seed: UInt64) { state = seed }
    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Applies what `tracker` reports changed in `state` to `shown`, the state as last shown,
/// and expects that to be `state`'s whole encoding: the round trip every change report
/// must make. `round` names the step in a failure, with the changes.
package func expectChangesRoundTrip<State: Encodable>(
    _ tracker: ChangeTracker, _ state: State, shown: inout Value, round: String,
    sourceLocation: SourceLocation = #_sourceLocation
) throws {
    let patches = try #require(try tracker.changes(of: state), sourceLocation: sourceLocation)
    for patch in patches { try patch.apply(to: &shown) }
    #expect(shown == (try ValueEncoder().encode(state)), "\(round): \(patches)", sourceLocation: sourceLocation)
}
