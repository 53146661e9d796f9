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
/// First a full copy of what the file holds goes to the temporary folder, in a new file of
/// a name no one could foresee (`storesh-rewrite-NAME-XXXXXX`, made as `mkstemp` makes
/// one: a link put there beforehand is never written through); a write that fails puts
/// the old contents back (when even that fails, the error says where the copy is). A
/// process killed half way leaves that copy behind, named in no message.
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
    let copy: String
    do throws(RewriteError) {
        copy = try keepCopy(old, of: path)
    } catch {
        throw RewriteError(
            description:
                "cannot keep a copy of it in \(FileManager.default.temporaryDirectory.path) first (\(error)); it was left as it was"
        )
    }
    do throws(RewriteError) {
        try writeAll(bytes, to: path)
    } catch {
        do throws(RewriteError) {
            try writeAll(old, to: path)
        } catch {
            throw RewriteError(description: "\(error), and its old contents could not be put back: they are in \(copy)")
        }
        unlink(copy)
        throw RewriteError(description: "\(error); its old contents are back")
    }
    unlink(copy)
}

/// Writes `old` (what the file at `path` holds) to a new file in the temporary folder, by
/// `mkstemp` (created, mode 0600, under a name that was free), synced; returns its path.
private func keepCopy(_ old: [UInt8], of path: String) throws(RewriteError) -> String {
    // The name cut short, to whole characters, so the copy's name stays within 255 bytes.
    var name = ""
    for character in URL(fileURLWithPath: path).lastPathComponent {
        guard name.utf8.count + character.utf8.count <= 200 else { break }
        name.append(character)
    }
    let folder = FileManager.default.temporaryDirectory.path
    var template = Array(
        ((folder.hasSuffix("/") ? folder : folder + "/") + "storesh-rewrite-" + name + "-XXXXXX").utf8CString)
    let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard descriptor >= 0 else { throw RewriteError(description: systemReason()) }
    let copy = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    defer { close(descriptor) }
    if let failure = writeWhole(old, to: descriptor) {
        unlink(copy)
        throw RewriteError(description: String(cString: strerror(failure)))
    }
    guard fsync(descriptor) == 0 else {
        let reason = systemReason()
        unlink(copy)
        throw RewriteError(description: reason)
    }
    return copy
}

/// Writes `bytes` over what the file at `path` holds (truncated first), synced.
private func writeAll(_ bytes: [UInt8], to path: String) throws(RewriteError) {
    let descriptor = open(path, O_WRONLY | O_CLOEXEC | O_TRUNC)
    guard descriptor >= 0 else { throw RewriteError(description: systemReason()) }
    defer { close(descriptor) }
    if let failure = writeWhole(bytes, to: descriptor) {
        throw RewriteError(description: String(cString: strerror(failure)))
    }
    guard fsync(descriptor) == 0 else { throw RewriteError(description: systemReason()) }
}

private func systemReason() -> String { String(cString: strerror(errno)) }
