import Foundation

/// Why a file operation failed, in the system's words ("Not a directory"). On Linux,
/// Foundation describes a failed write as "The operation could not be completed.
/// (NSCocoaErrorDomain error 512.)", and the error printed whole is a dump of its fields;
/// the system's reason is the underlying POSIX error, when there is one.
public func fileProblem(_ error: any Error) -> String {
    let error = error as NSError
    let underlying = (error.userInfo[NSUnderlyingErrorKey] as? any Error).map { $0 as NSError }
    for candidate in [error, underlying].compactMap({ $0 }) where candidate.domain == NSPOSIXErrorDomain {
        return String(cString: strerror(Int32(candidate.code)))
    }
    let generic = "The operation could not be completed. "
    let text = error.localizedDescription
    return text.hasPrefix(generic) && text.count > generic.count ? String(text.dropFirst(generic.count)) : text
}
