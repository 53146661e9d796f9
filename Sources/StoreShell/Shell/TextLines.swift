/// Lines of text as every reader of storesh's files takes them (scripts, transcripts,
/// exported logs): they end at LF, and the CRs before it are dropped (a file saved with
/// CRLF line endings reads as the same lines). All of them, not one: a line read and
/// written again must read the same, and no line storesh writes ends in a CR.
package enum TextLines {
    /// The lines of `text`, without their line endings; a text ending in a newline has an
    /// empty last line, as `split(omittingEmptySubsequences: false)` gives.
    package static func split(_ text: String) -> [Substring] {
        var lines: [Substring] = []
        let utf8 = text.utf8
        var start = utf8.startIndex
        var index = start
        while index != utf8.endIndex {
            if utf8[index] == 0x0A {
                lines.append(withoutLineEnd(text[start..<index]))
                start = utf8.index(after: index)
            }
            index = utf8.index(after: index)
        }
        lines.append(withoutLineEnd(text[start...]))
        return lines
    }

    /// `line` without the CRs it ends with.
    package static func withoutLineEnd(_ line: Substring) -> Substring {
        var line = line
        while line.utf8.last == 0x0D { line = line.dropLast() }
        return line
    }

    /// Whether `text` ends with a newline byte.
    package static func endsWithNewline(_ text: String) -> Bool {
        text.utf8.last == 0x0A
    }

    /// Where the first byte of `bytes` that is not UTF-8 is: its line, its column (in
    /// characters, from 1) and the byte; nil when all of it is UTF-8.
    package static func firstInvalidUTF8(in bytes: [UInt8]) -> (line: Int, column: Int, byte: UInt8)? {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let scalar): offset += scalar.count
            case .emptyInput: return nil
            case .error: return position(of: offset, in: bytes)
            }
        }
    }

    private static func position(of offset: Int, in bytes: [UInt8]) -> (line: Int, column: Int, byte: UInt8) {
        let before = bytes[..<offset]
        let lineStart = before.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
        let line = before.reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
        return (line, String(decoding: bytes[lineStart..<offset], as: UTF8.self).count + 1, bytes[offset])
    }

    /// How a byte that is not UTF-8 is named in errors: "byte 0xE2".
    package static func describe(_ byte: UInt8) -> String {
        let hex = String(byte, radix: 16, uppercase: true)
        return "byte 0x" + (hex.count == 1 ? "0" : "") + hex
    }
}
