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
/// - a character device, a FIFO, `/dev/stdout`, `/dev/fd/N`: written through as a stream
///   when the output is one (`streams`), else refused; a descriptor at its offset, and
///   only when it is open for writing and still what `check` saw;
/// - a directory, a block device, a socket, a dangling link, the standard input: refused.
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
        /// kind and replaces without being told. An empty file holds nothing to lose, but
        /// counts only when `emptyIsOwn` (the user's own file, not reached through a link).
        func isOwn(head: String, emptyIsOwn: Bool) -> Bool {
            if head.isEmpty { return emptyIsOwn && replacesOwn }
            return switch self {
            case .exploreTranscript:
                head.hasPrefix("# Found by storesh explore") || head.hasPrefix("# Found by :explore")
            case .junitReport:
                head.contains("<testsuite name=\"storesh transcripts\"")
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

    /// Where `explore --out` and `:explore --out` write the transcript of a failure:
    /// `out`, or MODEL.transcript, as `resolve` makes a path of it (the shell's folder);
    /// an existing file is replaced only with `--overwrite`.
    package static func exploreTranscript(
        _ out: String?, model: String, overwrite: Bool, resolve: (String) -> String = { $0 }
    ) -> OutputFile {
        let name = out ?? "\(model).transcript"
        return OutputFile(
            path: URL(fileURLWithPath: resolve(name)).standardizedFileURL.path, named: name,
            kind: .exploreTranscript, force: overwrite, hint: "--overwrite")
    }

    /// What writing will do.
    enum Plan: Equatable {
        /// A new file at this path.
        case create(String)
        /// Replace the regular file at this path (links resolved), keeping its mode.
        case replace(String, mode: mode_t, device: UInt64, inode: UInt64)
        /// Write through this descriptor of storesh's, or (nil) the stream the path names.
        case stream(Int32?)
    }

    /// Refuses, as `write` would, a path that cannot be written; writes nothing.
    package func check() throws(Problem) {
        if case .stream(let descriptor?) = try plan() { DescriptorIdentity.remember(descriptor) }
    }

    /// Writes `bytes` to the path as a whole, under the rule above.
    /// A write ends what `check` began for a descriptor, whether it is made or refused:
    /// a refused one's identity kept would refuse the next file opened on that number.
    package func write(_ bytes: [UInt8]) throws(Problem) {
        let plan: Plan
        do {
            plan = try self.plan()
        } catch {
            if let descriptor = Self.descriptor(named: path) { DescriptorIdentity.forget(descriptor) }
            throw error
        }
        switch plan {
        case .stream(let descriptor): try writeStream(bytes, through: descriptor)
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
        if Self.namesADescriptor(path) { return try descriptorPlan() }
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
        if type == S_IFSOCK { throw refusal("it is a socket; give a file name") }
        if type == S_IFCHR || type == S_IFIFO {
            guard kind.streams else { throw refusal(notARegularFile(status.st_mode)) }
            return .stream(nil)
        }
        guard type == S_IFREG else {
            throw refusal(type == S_IFDIR ? "it is a directory; give a file name" : notARegularFile(status.st_mode))
        }
        var link = stat()
        let throughLink = lstat(path, &link) == 0 && (link.st_mode & S_IFMT) == S_IFLNK
        if !force {
            // As root, a link someone else planted would have its file replaced.
            guard !throughLink || link.st_uid == geteuid() else {
                throw Problem(
                    description: "\(name) is a symbolic link another user owns; \(hint) replaces the file it points to")
            }
            let mine = !throughLink && status.st_uid == geteuid()
            guard kind.isOwn(head: Self.head(of: path), emptyIsOwn: mine) else {
                throw Problem(
                    description: kind.replacesOwn
                        ? "\(name) exists and storesh did not write it; \(hint) replaces it"
                        : "\(name) already exists; \(hint) replaces it")
            }
        }
        // The file itself, however it was named (links, `..` through them): what is renamed over.
        guard let resolved = realpath(path, nil) else { throw refusal(String(cString: strerror(errno))) }
        let target = String(cString: resolved)
        free(resolved)
        // Refused now rather than after a long search: the file is written beside this one.
        let directory = (target as NSString).deletingLastPathComponent
        guard access(directory, W_OK) == 0 else { throw refusal("\(directory): \(String(cString: strerror(errno)))") }
        return .replace(
            target, mode: status.st_mode & 0o7777, device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
    }

    func refusal(_ reason: String) -> Problem {
        Problem(description: "cannot write \(name): \(reason)", reason: reason)
    }

    /// `/dev/stdout`, `/dev/stderr`, `/dev/stdin`, `/dev/fd/N`, `/proc/self/fd/N` (N all
    /// digits): a descriptor of this process, whatever it is open on (a pipe, a terminal,
    /// a file the shell redirected). Anything else under those folders is a path like any.
    static func namesADescriptor(_ path: String) -> Bool {
        if ["/dev/stdout", "/dev/stderr", "/dev/stdin"].contains(path) { return true }
        for prefix in ["/dev/fd/", "/proc/self/fd/"] where path.hasPrefix(prefix) {
            let number = path.utf8.dropFirst(prefix.utf8.count)
            return !number.isEmpty && number.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
        }
        return false
    }

    /// The descriptor such a path names (nil: a number no descriptor can have).
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

    /// A descriptor is written as it is, at its offset: opened again, a file the shell
    /// redirected to would be written from its start, over what was printed. It must be
    /// open for writing, and still be what it was when `check` looked at it: a descriptor
    /// closed since may have been reused for a file storesh opened itself.
    private func descriptorPlan() throws(Problem) -> Plan {
        guard kind.streams else { throw refusal("it is a stream, not a file; give a file name") }
        guard let descriptor = Self.descriptor(named: path) else { throw refusal("no such descriptor") }
        guard descriptor != 0 else { throw refusal("it is the standard input; give a file name or /dev/stdout") }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw refusal("descriptor \(descriptor) is not open") }
        let flags = fcntl(descriptor, F_GETFL)
        guard flags >= 0, flags & O_ACCMODE != O_RDONLY else {
            throw refusal("descriptor \(descriptor) is open for reading only")
        }
        let identity = DescriptorIdentity(status)
        if let checked = DescriptorIdentity.checked(descriptor), checked != identity {
            throw refusal("descriptor \(descriptor) was closed and opened on something else since storesh checked it")
        }
        return .stream(descriptor)
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
