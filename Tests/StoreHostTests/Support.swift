import Foundation
import StoreHost
import Testing

/// The build directory, where `swift build`/`swift test` put the example plugins.
let buildDirectory: String = {
    // The test bundle lives in .build/<config>/ beside the plugin libraries.
    let bundle = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
    var url = bundle.resolvingSymlinksInPath().deletingLastPathComponent()
    while !url.path.hasSuffix("/") && !FileManager.default.fileExists(atPath: url.appendingPathComponent("libCCounter.so").path) && url.path != "/" {
        url.deleteLastPathComponent()
    }
    return url.path
}()

@MainActor
func makeHost(clock: (any HostClock)? = nil) -> PluginHost {
    PluginHost(clock: clock ?? VirtualClock(), searchPath: [buildDirectory])
}
