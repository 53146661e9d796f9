import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Why a file was not rewritten, in words for the user.
package struct RewriteError: Error, CustomStringConvertible {
    /// "it is read-only (mode 0444)", "Permission denied", …
    package let description: String
}

/// Replaces what the file at `path` holds (the file a link points to) with `bytes`, in
/// place: the file keeps its inode — owner, group, mode, hard links — and a read-only
/// folder is no obstacle, where writing a new file and renaming it over the old one would
/// change all of that. A file with no write permission bit is refused, even for root.
///
/// First a full copy of what the file holds goes to the temporary folder; a write that
/// fails puts the old contents back (when even that fails, the error says where the copy
/// is). A process killed half way leaves that copy behind, named in no message: it is
/// `storesh-rewrite-PID-NAME` in the temporary folder.
package func rewriteInPlace(_ path: String, with bytes: [UInt8]) throws(RewriteError) {
    var status = stat()
    guard stat(path, &status) == 0 else { throw RewriteError(description: systemReason()) }
    guard (status.st_mode & S_IFMT) == S_IFREG else { throw RewriteError(description: notARegularFile(status.st_mode)) }
    guard status.st_mode & 0o222 != 0 else {
        throw RewriteError(
            description:
                "it is read-only (mode \(String(status.st_mode & 0o7777, radix: 8))); make it writable to update it")
    }
    let old: [UInt8]
    switch readWholeFile(path) {
    case .success(let contents): old = contents
    case .failure(let error): throw RewriteError(description: error.reason)
    }
    let name = URL(fileURLWithPath: path).lastPathComponent
    let copy = FileManager.default.temporaryDirectory.appendingPathComponent("storesh-rewrite-\(getpid())-\(name)").path
    do throws(RewriteError) {
        try writeAll(old, to: copy, flags: O_CREAT | O_TRUNC)
    } catch {
        throw RewriteError(
            description:
                "cannot keep a copy of it in \(FileManager.default.temporaryDirectory.path) first (\(error)); it was left as it was"
        )
    }
    do throws(RewriteError) {
        try writeAll(bytes, to: path, flags: O_TRUNC)
    } catch {
        do throws(RewriteError) {
            try writeAll(old, to: path, flags: O_TRUNC)
        } catch {
            throw RewriteError(description: "\(error), and its old contents could not be put back: they are in \(copy)")
        }
        unlink(copy)
        throw RewriteError(description: "\(error); its old contents are back")
    }
    unlink(copy)
}

/// Writes `bytes` to the file at `path` (opened for writing with `flags` added), synced.
private func writeAll(_ bytes: [UInt8], to path: String, flags: Int32) throws(RewriteError) {
    let descriptor = open(path, O_WRONLY | O_CLOEXEC | flags, 0o600)
    guard descriptor >= 0 else { throw RewriteError(description: systemReason()) }
    defer { close(descriptor) }
    var offset = 0
    while offset < bytes.count {
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
        if written < 0 {
            if errno == EINTR { continue }
            throw RewriteError(description: systemReason())
        }
        offset += written
    }
    guard fsync(descriptor) == 0 else { throw RewriteError(description: systemReason()) }
}

private func systemReason() -> String { String(cString: strerror(errno)) }
