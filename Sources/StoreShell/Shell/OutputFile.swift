import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The one rule for every file storesh writes whole (a transcript, an export, a JUnit
/// report): what is at the path decides what happens, and nothing is ever renamed over
/// something that is not a regular file.
///
/// - nothing there: a new file, written beside it and linked into place;
/// - a regular file: replaced atomically (written beside it, synced, renamed over it) only
///   when storesh wrote it — its first line says so, for the kinds storesh makes again
///   on every run — or the user asked (`force`); else refused;
/// - a character device, a FIFO, a socket, `/dev/stdout`: written through as a stream
///   when the output is one (`streams`), else refused;
/// - a directory, a block device, a dangling link: refused.
///
/// `check` applies the same rule without writing, so a command that writes at its end
/// refuses a bad path before its long work.
///
///     let file = OutputFile(path: "Counter.transcript", kind: .exploreTranscript, force: false, hint: "--overwrite")
///     try file.check()   // before the search
///     try file.write(Array(text.utf8))
package struct OutputFile: Sendable {
    /// What is written, which decides which existing files are storesh's own.
    package enum Kind: Sendable {
        /// `storesh explore --out`, `:explore --out`: made again on every run.
        case exploreTranscript
        /// `:save-test`, `test --from-journal --out`: kept and edited by people, so an
        /// existing one is replaced only with `force`.
        case savedTranscript
        /// `:export`: replaced only with `force`.
        case export
        /// `storesh test --junit`: made again on every run, and may be a stream.
        case junitReport

        /// Whether a regular file that starts with `head` is one storesh made of this
        /// kind and replaces without being told (an empty file holds nothing to lose).
        func isOwn(head: String) -> Bool {
            switch self {
            case .exploreTranscript:
                head.isEmpty || head.hasPrefix("# Found by storesh explore") || head.hasPrefix("# Found by :explore")
            case .junitReport:
                head.isEmpty || head.contains("<testsuite name=\"storesh transcripts\"")
            case .savedTranscript, .export: false
            }
        }

        /// Whether storesh replaces its own files of this kind without being told.
        var replacesOwn: Bool { self == .exploreTranscript || self == .junitReport }

        var streams: Bool { self == .junitReport }
    }

    /// Why a file was not written, in words for the user.
    package struct Problem: Error, CustomStringConvertible {
        /// "Counter.transcript exists and storesh did not write it; --overwrite replaces it",
        /// "cannot write /dev/full: it is a character device, not a regular file", …
        package let description: String
        /// Why the path cannot be written ("No space left on device", "it is a directory;
        /// give a file name"), when that is the problem; nil for a file not replaced.
        package let reason: String?

        package init(description: String, reason: String? = nil) {
            self.description = description
            self.reason = reason
        }
    }

    /// Where to write (relative to the working directory, or absolute).
    package let path: String
    /// The path as the user gave it, named in messages.
    package let name: String
    package let kind: Kind
    /// The user asked to replace an existing regular file.
    package let force: Bool
    /// How the user asks for that, as the message shows it: "--force", "--overwrite",
    /// "':save-test FILE --force'".
    package let hint: String

    package init(path: String, named name: String? = nil, kind: Kind, force: Bool, hint: String) {
        self.path = path
        self.name = name ?? path
        self.kind = kind
        self.force = force
        self.hint = hint
    }

    /// What writing will do.
    enum Plan: Equatable {
        /// A new file at this path.
        case create(String)
        /// Replace the regular file at this path (links resolved), keeping its mode.
        case replace(String, mode: mode_t, device: UInt64, inode: UInt64)
        /// Write through the stream the path names.
        case stream
    }

    /// Refuses, as `write` would, a path that cannot be written; writes nothing.
    package func check() throws(Problem) {
        _ = try plan()
    }

    /// Writes `bytes` to the path as a whole, under the rule above.
    package func write(_ bytes: [UInt8]) throws(Problem) {
        switch try plan() {
        case .stream: try writeStream(bytes)
        case .create(let target): try writeBeside(bytes, into: target, replacing: nil)
        case .replace(let target, let mode, let device, let inode):
            try writeBeside(bytes, into: target, replacing: (mode, device, inode))
        }
    }

    /// `write` of a text.
    package func write(_ text: String) throws(Problem) {
        try write(Array(text.utf8))
    }

    func plan() throws(Problem) -> Plan {
        if Self.namesADescriptor(path) {
            guard kind.streams else { throw refusal("it is a stream, not a file; give a file name") }
            return .stream
        }
        var status = stat()
        guard stat(path, &status) == 0 else {
            let reason = errno
            var link = stat()
            if reason == ENOENT, lstat(path, &link) == 0 {
                throw refusal("it is a symbolic link to nothing; give a file name")
            }
            guard reason == ENOENT else { throw refusal(String(cString: strerror(reason))) }
            let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
            var folder = stat()
            guard stat(directory, &folder) == 0, (folder.st_mode & S_IFMT) == S_IFDIR else {
                throw refusal("no such directory \(directory)")
            }
            guard access(directory, W_OK) == 0 else {
                throw refusal("\(directory): \(String(cString: strerror(errno)))")
            }
            return .create(path)
        }
        let type = status.st_mode & S_IFMT
        if type == S_IFCHR || type == S_IFIFO || type == S_IFSOCK {
            guard kind.streams else { throw refusal(notARegularFile(status.st_mode)) }
            return .stream
        }
        guard type == S_IFREG else {
            throw refusal(type == S_IFDIR ? "it is a directory; give a file name" : notARegularFile(status.st_mode))
        }
        if !force {
            guard kind.isOwn(head: Self.head(of: path)) else {
                throw Problem(
                    description: kind.replacesOwn
                        ? "\(name) exists and storesh did not write it; \(hint) replaces it"
                        : "\(name) already exists; \(hint) replaces it")
            }
        }
        let target = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        return .replace(
            target, mode: status.st_mode & 0o7777, device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
    }

    private func refusal(_ reason: String) -> Problem {
        Problem(description: "cannot write \(name): \(reason)", reason: reason)
    }

    /// `/dev/stdout`, `/dev/stderr`, `/dev/fd/N`, `/proc/self/fd/N`: a descriptor of this
    /// process, whatever it is open on (a pipe, a terminal, a file the shell redirected).
    static func namesADescriptor(_ path: String) -> Bool {
        ["/dev/stdout", "/dev/stderr", "/dev/stdin"].contains(path) || path.hasPrefix("/dev/fd/")
            || path.hasPrefix("/proc/self/fd/")
    }

    /// The descriptor such a path names, written to as it is: opened again, a file the
    /// shell redirected to would be written from its start, over what was printed.
    static func descriptor(named path: String) -> Int32? {
        switch path {
        case "/dev/stdin": return 0
        case "/dev/stdout": return 1
        case "/dev/stderr": return 2
        default:
            for prefix in ["/dev/fd/", "/proc/self/fd/"] where path.hasPrefix(prefix) {
                return Int32(path.dropFirst(prefix.count))
            }
            return nil
        }
    }

    /// The file's first 512 bytes, as text.
    static func head(of path: String) -> String {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return "?" }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: 512)
        let count = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count >= 0 else { return "?" }
        return String(decoding: bytes.prefix(count), as: UTF8.self)
    }

    /// Writes through the stream: no truncation, no rename. A FIFO no process reads is
    /// refused at once instead of waiting for a reader.
    private func writeStream(_ bytes: [UInt8]) throws(Problem) {
        if let open = Self.descriptor(named: path) {
            fflush(nil)  // what was printed through stdio comes first
            guard fcntl(open, F_GETFD) >= 0 else { throw refusal(String(cString: strerror(errno))) }
            try writeAll(bytes, to: open)
            return
        }
        let descriptor = open(path, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw refusal(errno == ENXIO ? "no process reads it" : String(cString: strerror(errno)))
        }
        defer { close(descriptor) }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        try writeAll(bytes, to: descriptor)
    }

    /// Writes a file beside `target`, then puts it in place: over the regular file that was
    /// there (`replacing`: its mode, and the identity it must still have), or as a new name
    /// that must still be free. Whatever fails, the old file is left as it was.
    private func writeBeside(
        _ bytes: [UInt8], into target: String, replacing old: (mode: mode_t, device: UInt64, inode: UInt64)?
    ) throws(Problem) {
        let url = URL(fileURLWithPath: target)
        let temporary = url.deletingLastPathComponent().appendingPathComponent(
            ".\(url.lastPathComponent).storesh-\(getpid()).tmp"
        ).path
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw refusal(String(cString: strerror(errno))) }
        var placed = false
        defer { if !placed { unlink(temporary) } }
        do throws(Problem) {
            if let old { _ = fchmod(descriptor, old.mode) }
            try writeAll(bytes, to: descriptor)
            guard fsync(descriptor) == 0 else { throw refusal(String(cString: strerror(errno))) }
        } catch {
            close(descriptor)
            throw error
        }
        close(descriptor)
        var now = stat()
        let present = lstat(target, &now) == 0
        if let old {
            guard present, (now.st_mode & S_IFMT) == S_IFREG, UInt64(now.st_dev) == old.device,
                UInt64(now.st_ino) == old.inode
            else { throw refusal("it changed while storesh wrote it; it was left as it is") }
            guard rename(temporary, target) == 0 else { throw refusal(String(cString: strerror(errno))) }
        } else {
            guard !present else { throw refusal("it appeared while storesh wrote it; it was left as it is") }
            // A link fails when the name was taken meanwhile, where a rename would replace it.
            // A file system without hard links gets a rename, the name checked just before.
            if link(temporary, target) == 0 {
                unlink(temporary)
            } else if errno == EEXIST || lstat(target, &now) == 0 {
                throw refusal("it appeared while storesh wrote it; it was left as it is")
            } else {
                guard rename(temporary, target) == 0 else { throw refusal(String(cString: strerror(errno))) }
            }
        }
        placed = true
    }

    private func writeAll(_ bytes: [UInt8], to descriptor: Int32) throws(Problem) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                throw refusal(String(cString: strerror(errno)))
            }
            offset += written
        }
    }
}

/// What a file is, from its `st_mode`, for messages: "a regular file", "a directory", "a
/// character device", "a block device", "a FIFO", "a socket", "a symbolic link".
package func fileKind(_ mode: UInt32) -> String {
    switch mode & S_IFMT {
    case S_IFREG: "a regular file"
    case S_IFDIR: "a directory"
    case S_IFCHR: "a character device"
    case S_IFBLK: "a block device"
    case S_IFIFO: "a FIFO"
    case S_IFSOCK: "a socket"
    case S_IFLNK: "a symbolic link"
    default: "not a file"
    }
}

/// "it is a character device, not a regular file": why a path that must name a regular
/// file (a journal, the history, a transcript to update) cannot be used.
package func notARegularFile(_ mode: UInt32) -> String {
    "it is \(fileKind(mode)), not a regular file"
}
