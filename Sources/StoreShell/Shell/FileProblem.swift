import Foundation

/// Why a file operation failed, in the system's words ("Not a directory"). On Linux,
/// Foundation describes a failed write as "The operation could not be completed.
/// (NSCocoaErrorDomain error 512.)", and the error printed whole is a dump of its fields;
/// the system's reason is the underlying POSIX error, when there is one.
package func fileProblem(_ error: any Error) -> String {
    let error = error as NSError
    let underlying = (error.userInfo[NSUnderlyingErrorKey] as? any Error).map { $0 as NSError }
    for candidate in [error, underlying].compactMap({ $0 }) where candidate.domain == NSPOSIXErrorDomain {
        return String(cString: strerror(Int32(candidate.code)))
    }
    let generic = "The operation could not be completed. "
    let text = error.localizedDescription
    return text.hasPrefix(generic) && text.count > generic.count ? String(text.dropFirst(generic.count)) : text
}

/// Writes all of `bytes` to `descriptor`, again after an interrupted or short write; nil,
/// or the `errno` of the write that failed.
func writeWhole(_ bytes: [UInt8], to descriptor: Int32) -> Int32? {
    var offset = 0
    while offset < bytes.count {
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
        if written < 0 {
            if errno == EINTR { continue }
            return errno
        }
        offset += written
    }
    return nil
}

/// Why a file could not be read, in the system's words.
package struct FileReadError: Error, CustomStringConvertible {
    /// "No such file or directory", "it is a directory", "Permission denied".
    package let reason: String
    /// The reason, as printed.
    package var description: String { reason }
}

/// A descriptor for reading the file at `path` (closed on exec), or why there is none:
/// the system's reason, and "it is a directory" for a directory, which `open` accepts.
/// Scripts and files read whole are opened this way, so they fail in the same words.
package func openForReading(_ path: String) -> Result<Int32, FileReadError> {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return .failure(FileReadError(reason: String(cString: strerror(errno)))) }
    var status = stat()
    if fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR {
        close(descriptor)
        return .failure(FileReadError(reason: "it is a directory"))
    }
    return .success(descriptor)
}

/// The whole of the file at `path`, or why it cannot be read. Whatever `path` names is
/// read to its end — a regular file, a character device such as /dev/null, a FIFO —
/// where `FileManager.contents(atPath:)` gives nil for a device, with no reason.
package func readWholeFile(_ path: String) -> Result<[UInt8], FileReadError> {
    let descriptor: Int32
    switch openForReading(path) {
    case .success(let opened): descriptor = opened
    case .failure(let error): return .failure(error)
    }
    defer { close(descriptor) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if count == 0 { return .success(bytes) }
        if count < 0 {
            if errno == EINTR { continue }
            return .failure(FileReadError(reason: String(cString: strerror(errno))))
        }
        bytes.append(contentsOf: chunk[0..<count])
    }
}
