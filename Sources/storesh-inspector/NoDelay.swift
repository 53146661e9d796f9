import Foundation

/// Turns Nagle's algorithm off for every connection the server accepts on 127.0.0.1 at
/// `port`. FlyingFox writes a response's head and its body in two writes; with Nagle on,
/// the second waited for the client's delayed acknowledgement of the first, and every
/// request on a kept-alive connection took 44 ms instead of a fraction of one. Linux gives
/// an accepted socket the listening socket's TCP_NODELAY, and FlyingFox does not hand out
/// its listening socket, so it is found among this process's descriptors by its port.
/// False when it is not found or the option cannot be set.
func turnNagleOff(listeningOn port: UInt16) -> Bool {
    for fd in Int32(3)..<Int32(1024) {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0, address.sin_family == sa_family_t(AF_INET), UInt16(bigEndian: address.sin_port) == port else {
            continue
        }
        var listening: Int32 = 0
        var size = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &listening, &size) == 0, listening == 1 else { continue }
        var on: Int32 = 1
        return setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size)) == 0
    }
    return false
}
