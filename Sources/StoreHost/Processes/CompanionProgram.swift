import Foundation

/// The programs that ship beside storesh in one folder (`storesh-worker`, `storesh-mcp`,
/// `storesh-inspector`), found the same way for every caller: an environment variable
/// naming it, or the folder of the running program with symbolic links resolved (an
/// installed `bin/storesh` is a link into `lib/storesh`), or of `/proc/self/exe`.
package enum CompanionProgram {
    /// Where the program `name` is: `environment[variable]` when set and not empty, or
    /// `name` in a folder of the running program. Nil when it is in none; `searched`
    /// then holds the folders looked in, for the error.
    package static func path(named name: String, overriddenBy variable: String, searched: inout [String]) -> String? {
        if let given = ProcessInfo.processInfo.environment[variable], !given.isEmpty { return given }
        searched = []
        if let main = Bundle.main.executableURL?.resolvingSymlinksInPath().deletingLastPathComponent().path {
            searched.append(main)
        }
        if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            let folder = (exe as NSString).deletingLastPathComponent
            if !searched.contains(folder) { searched.append(folder) }
        }
        return searched.map { $0 + "/" + name }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
