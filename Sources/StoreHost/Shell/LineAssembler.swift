/// Decides whether typed text is a whole line yet: a line with an unclosed quote or
/// bracket continues on the next one (at the prompt, in scripts and in transcripts).
public enum LineAssembler {
    /// True when every quote and bracket in `text` is closed (or closed too often, which
    /// the parser reports as an error instead of waiting for more).
    public static func isComplete(_ text: Substring) -> Bool {
        var text = text
        return text.withUTF8(isComplete(bytes:))
    }

    public static func isComplete(_ text: String) -> Bool {
        var text = text
        return text.withUTF8(isComplete(bytes:))
    }

    private static func isComplete(bytes text: UnsafeBufferPointer<UInt8>) -> Bool {
        var depth = 0
        var inString = false
        var escaped = false
        for byte in text {
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"), UInt8(ascii: "("): depth += 1
            case UInt8(ascii: "]"), UInt8(ascii: "}"), UInt8(ascii: ")"): depth -= 1
            default: break
            }
        }
        return !inString && depth <= 0
    }
}
