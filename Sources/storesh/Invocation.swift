import Foundation

/// How a command storesh prints should call storesh, so that it runs as printed: plain
/// `storesh` when that name on the `PATH` is this very program, else this program's own
/// path (quoted for a shell when it needs to be). A user who started storesh from a build
/// folder (`scripts/run`) has no `storesh` on the `PATH`, and `storesh new`'s next steps
/// must still work when pasted.
enum Invocation {
    /// The running program, with symbolic links resolved.
    static var runningProgram: String? {
        if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return exe }
        return Bundle.main.executableURL?.resolvingSymlinksInPath().path
    }

    /// `storesh`, or the path to run instead when the `PATH` finds no storesh or another one.
    static func storesh(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        guard let running = runningProgram else { return "storesh" }
        if let found = onPath("storesh", environment: environment),
            URL(fileURLWithPath: found).resolvingSymlinksInPath().path == running
        {
            return "storesh"
        }
        return shellQuoted(running)
    }

    /// The first executable file called `name` in the `PATH`'s directories.
    static func onPath(_ name: String, environment: [String: String]) -> String? {
        let directories = (environment["PATH"] ?? "").split(separator: ":").map(String.init)
        for directory in directories where !directory.isEmpty {
            let candidate = directory + "/" + name
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate, isDirectory: &isDirectory), !isDirectory.boolValue,
                FileManager.default.isExecutableFile(atPath: candidate)
            {
                return candidate
            }
        }
        return nil
    }

    /// `text` as one word for a POSIX shell: unchanged when it holds only characters no
    /// shell treats specially, else in single quotes.
    static func shellQuoted(_ text: String) -> String {
        let plain = CharacterSet(
            charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-+=:,@%")
        if !text.isEmpty, text.unicodeScalars.allSatisfy(plain.contains) { return text }
        return "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
