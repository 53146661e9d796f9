import StoreHost

/// Decides whether typed text is a whole statement yet: a line with an unclosed quote or
/// bracket continues on the next one (at the prompt, in scripts and in transcripts).
///
/// Incremental: feed it line after line and each byte is looked at once, so a long
/// statement costs linear time, not a rescan per line.
package struct LineAssembler: Sendable {
    private var openers: [Int] = []  // byte offsets of the brackets still open
    private var closedTooOften = false
    private var stringStart: Int?
    private var escaped = false
    /// Bytes fed so far.
    package private(set) var count = 0

    package init() {}

    /// True when every quote and bracket fed so far is closed (or one was closed too
    /// often, which the parser reports as an error instead of waiting for more).
    package var isComplete: Bool { stringStart == nil && (openers.isEmpty || closedTooOften) }

    /// The byte offset of the quote or bracket that keeps the statement open.
    package var openedAt: Int? { stringStart ?? openers.last }

    package mutating func feed<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        for byte in bytes {
            defer { count += 1 }
            if stringStart != nil {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    stringStart = nil
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): stringStart = count
            case UInt8(ascii: "["), UInt8(ascii: "{"), UInt8(ascii: "("): openers.append(count)
            case UInt8(ascii: "]"), UInt8(ascii: "}"), UInt8(ascii: ")"):
                if openers.popLast() == nil { closedTooOften = true }
            default: break
            }
        }
    }

    /// True when every quote and bracket in `text` is closed (or closed too often).
    package static func isComplete(_ text: Substring) -> Bool {
        // Most lines open nothing: one pass over contiguous bytes decides them.
        let opensNothing = text.utf8.withContiguousStorageIfAvailable { bytes in
            !bytes.contains {
                $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "[") || $0 == UInt8(ascii: "{")
                    || $0 == UInt8(ascii: "(")
            }
        }
        if opensNothing == true { return true }
        var assembler = LineAssembler()
        assembler.feed(text.utf8)
        return assembler.isComplete
    }

    package static func isComplete(_ text: String) -> Bool {
        isComplete(Substring(text))
    }
}
