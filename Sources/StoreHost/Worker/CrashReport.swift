import Foundation

/// What a crashed worker's stderr says about the crash: the runtime's message
/// ("arithmetic overflow", "Unexpectedly found nil…") and the first place in the
/// plugin's own code ("Counter.swift:18"), read from Swift's fatal-error line and from
/// its backtrace of the crashed thread.
struct CrashReport {
    private(set) var message: String?
    private(set) var place: String?
    /// The crashed thread was running a Swift task (its backtrace has async frames): an
    /// effect, since a model's update runs synchronously.
    private(set) var inTask = false

    init(_ lastWords: String) {
        let lines = lastWords.split(separator: "\n", omittingEmptySubsequences: true)
        for line in lines {
            if message == nil, let range = Self.failureKinds.lazy.compactMap({ line.range(of: $0) }).first {
                let text = line[range.upperBound...].trimmingCharacters(in: .whitespaces)
                message = text.isEmpty ? "fatal error" : text
                // "path/File.swift:18: Fatal error: …"
                let prefix = line[..<range.lowerBound].split(separator: ":")
                if prefix.count >= 2, let file = prefix.first,
                    Int(prefix[1].trimmingCharacters(in: .whitespaces)) != nil
                {
                    place = "\(Self.baseName(file)):\(prefix[1].trimmingCharacters(in: .whitespaces))"
                }
            } else if message == nil, let range = line.range(of: "Swift runtime failure: ") {
                message = String(line[range.upperBound...].split(separator: " in ").first ?? "")
                    .trimmingCharacters(in: CharacterSet(charactersIn: " *"))
            } else if message == nil, let range = line.range(of: "*** Program crashed: ") {
                message = String(line[range.upperBound...].split(separator: " at 0x").first ?? "")
            }
        }
        inTask = lines.contains { $0.contains(" [async] ") }
        // The first frame of the crashed thread in code with a source file, skipping the
        // runtime's own frames and compiler-made thunks.
        for line in lines where place == nil {
            guard line.contains(" at /"), !line.contains("[system]"), !line.contains("[thunk]"),
                let at = line.range(of: " at ", options: .backwards)
            else { continue }
            let location = line[at.upperBound...].split(separator: ":")
            guard location.count >= 2, Int(location[1]) != nil else { continue }
            place = "\(Self.baseName(location[0])):\(location[1])"
        }
        if message == "Illegal instruction" || message == "Segmentation fault" || message == "Aborted" { message = nil }
    }

    /// How the Swift runtime starts the line it prints before a trap.
    static let failureKinds = ["Fatal error: ", "Precondition failed: ", "Assertion failed: "]

    private static func baseName<S: StringProtocol>(_ path: S) -> String {
        String(String(path).split(separator: "/").last ?? "")
    }
}
