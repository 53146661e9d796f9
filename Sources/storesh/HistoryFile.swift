import Foundation
import StoreShell

#if canImport(Glibc)
    import Glibc
#endif

/// The prompt's history file, checked before libedit reads or writes it.
enum HistoryFile {
    /// The first line libedit writes (and expects) in a history file.
    static let libeditHeader = "_HiStOrY_V2_"
    /// A history file larger than this is not read (the history keeps 1,000 lines).
    static let maxBytes = 16 << 20

    /// Where the history lives: $STORESH_HISTORY, else $XDG_STATE_HOME/storesh/history,
    /// else ~/.local/state/storesh/history (its directory is created when missing) — or
    /// nil with a warning when that path must not be used: not a regular file (a device,
    /// a directory), too large, or a file libedit did not write (it would be replaced).
    static func path() -> (path: String?, warning: String?) {
        let environment = ProcessInfo.processInfo.environment
        var path: String
        if let explicit = environment["STORESH_HISTORY"], !explicit.isEmpty {
            path = explicit
        } else if let state = environment["XDG_STATE_HOME"], !state.isEmpty {
            path = state + "/storesh/history"
        } else {
            path = (environment["HOME"] ?? NSHomeDirectory()) + "/.local/state/storesh/history"
        }
        let directory = (path as NSString).deletingLastPathComponent
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        // The file itself, found once: libedit's save renames a new file over the path,
        // which would replace a link to the history with a file of its own.
        var link = stat()
        if let resolved = realpath(path, nil) {
            path = String(cString: resolved)
            free(resolved)
        } else if lstat(path, &link) == 0, (link.st_mode & S_IFMT) == S_IFLNK {
            return (nil, "history file \(path) is a symbolic link to nothing; history is not kept this session")
        } else if let folder = realpath(directory, nil) {
            path = (String(cString: folder) as NSString).appendingPathComponent((path as NSString).lastPathComponent)
            free(folder)
        }
        var status = stat()
        guard stat(path, &status) == 0 else { return (path, nil) }  // a new file
        let refused = { (why: String) in (String?.none, "history file \(path) \(why); history is not kept this session")
        }
        guard (status.st_mode & S_IFMT) == S_IFREG else {
            return refused("is \(fileKind(status.st_mode)), not a regular file")
        }
        guard status.st_size <= maxBytes else { return refused("is larger than \(maxBytes >> 20) MiB") }
        guard status.st_size > 0 else { return (path, nil) }
        guard let handle = FileHandle(forReadingAtPath: path) else { return refused("cannot be read") }
        defer { try? handle.close() }
        let start = (try? handle.read(upToCount: libeditHeader.utf8.count)) ?? Data()
        guard start.elementsEqual(libeditHeader.utf8) else {
            return refused("was not written by libedit (its first line is not \(libeditHeader)); it is left as it is")
        }
        return (path, nil)
    }
}
