import Foundation

#if canImport(Glibc)
    import Glibc
#endif

extension OutputFile {
    /// Writes through the stream: no truncation, no rename. A FIFO no process reads is
    /// refused at once instead of waiting for a reader.
    func writeStream(_ bytes: [UInt8], through own: Int32?) throws(Problem) {
        if let own {
            defer { DescriptorIdentity.forget(own) }
            fflush(nil)  // what was printed through stdio comes first
            try writeAll(bytes, to: own)
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
    func writeBeside(
        _ bytes: [UInt8], into target: String, replacing old: (mode: mode_t, device: UInt64, inode: UInt64)?
    ) throws(Problem) {
        // A replacement is private until it has the old file's mode.
        let (temporary, descriptor) = try openTemporary(beside: target, mode: old == nil ? 0o644 : 0o600)
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

    /// Makes a new file beside `target`, `.NAME.storesh-RANDOM.tmp` (NAME cut short so the
    /// name stays within 255 bytes), under a name tried afresh while one is taken: a file
    /// a killed run left behind is no obstacle, even to a process with the same pid.
    private func openTemporary(beside target: String, mode: mode_t) throws(Problem) -> (String, Int32) {
        let url = URL(fileURLWithPath: target)
        let folder = url.deletingLastPathComponent().path
        let suffixLength = ".storesh-".utf8.count + 16 + ".tmp".utf8.count
        var name = Array(url.lastPathComponent.utf8)
        var keep = min(name.count, 255 - 1 - suffixLength)
        while keep > 0, keep < name.count, name[keep] & 0xC0 == 0x80 { keep -= 1 }  // a whole character
        name = Array(name.prefix(keep))
        for _ in 0..<64 {
            let random = String(UInt64.random(in: .min ... .max), radix: 16)
            let padded = String(repeating: "0", count: 16 - random.count) + random
            let temporary =
                (folder.hasSuffix("/") ? folder : folder + "/") + "." + String(decoding: name, as: UTF8.self)
                + ".storesh-\(padded).tmp"
            let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
            if descriptor >= 0 { return (temporary, descriptor) }
            guard errno == EEXIST else { throw refusal(String(cString: strerror(errno))) }
        }
        throw refusal("no free name for a temporary file in \(folder)")
    }

    private func writeAll(_ bytes: [UInt8], to descriptor: Int32) throws(Problem) {
        if let failure = writeWhole(bytes, to: descriptor) { throw refusal(String(cString: strerror(failure))) }
    }
}

/// What a descriptor is open on (device, inode, and the device it is, for a terminal),
/// as `OutputFile.check` saw it, so the write at the end goes nowhere else.
struct DescriptorIdentity: Equatable {
    let device: UInt64
    let inode: UInt64
    let represents: UInt64

    init(_ status: stat) {
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
        represents = UInt64(status.st_rdev)
    }

    /// Descriptors checked and not yet written, by number.
    nonisolated(unsafe) private static var checkedDescriptors: [Int32: DescriptorIdentity] = [:]
    private static let lock = NSLock()

    static func checked(_ descriptor: Int32) -> DescriptorIdentity? {
        lock.withLock { checkedDescriptors[descriptor] }
    }

    /// Keeps what `descriptor` is open on now, unless it was checked already.
    static func remember(_ descriptor: Int32) {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return }
        lock.withLock {
            if checkedDescriptors[descriptor] == nil { checkedDescriptors[descriptor] = DescriptorIdentity(status) }
        }
    }

    static func forget(_ descriptor: Int32) {
        _ = lock.withLock { checkedDescriptors.removeValue(forKey: descriptor) }
    }
}
