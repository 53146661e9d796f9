// os where the system has none (Linux, Windows, Android, WASI): `Logger`, its messages
// with `privacy:`, `format:` and `align:`, and `OSLog`/`os_log` basics, written to
// swift-log, so a model file that begins `import os` compiles unchanged. A file imports it
// as `os` when its target passes `-module-alias os=OSLogOnLinux` (Package.swift's
// `linuxModuleAliases`): built under its own name, it does not turn on other packages'
// `#if canImport(os)` code (swift-argument-parser's os_unfair_lock). The store libraries
// depend on it only on those platforms.
import Foundation
public import Logging

/// Writes messages to the log: `os.Logger`, over swift-log.
///
/// Each logger is a swift-log `Logger` labelled `subsystem.category`, so whatever
/// `LoggingSystem` the program bootstrapped receives its messages (by default, swift-log
/// prints them to standard output from `info` up). The levels map as their names say;
/// `log` and `notice` are swift-log's `notice`, `fault` and `critical` its `critical`.
public struct Logger: Sendable {
    /// The swift-log logger the messages go to.
    public var handler: Logging.Logger

    /// A logger for `category` of `subsystem` (conventionally the app's bundle id).
    public init(subsystem: String, category: String) {
        handler = Logging.Logger(label: "\(subsystem).\(category)")
    }

    /// A logger for the default subsystem.
    public init() {
        handler = Logging.Logger(label: "default")
    }

    /// A logger writing where `log` does.
    public init(_ log: OSLog) {
        handler = Logging.Logger(label: log.label)
        if log.isDisabled { handler.logLevel = .critical }
        self.isDisabled = log.isDisabled
    }

    /// A logger writing to `handler`, for tests and hosts that route messages themselves.
    public init(handler: Logging.Logger) {
        self.handler = handler
    }

    private var isDisabled = false

    /// Logs `message` at `level`. (`file`, `function` and `line` are for swift-log's
    /// handlers, which show where a message came from; callers never pass them.)
    public func log(
        level: OSLogType, _ message: OSLogMessage, file: String = #fileID, function: String = #function,
        line: UInt = #line
    ) {
        write(level.swiftLogLevel, message, file, function, line)
    }

    /// Logs at the default level (swift-log's `notice`).
    public func log(_ message: OSLogMessage, file: String = #fileID, function: String = #function, line: UInt = #line) {
        write(.notice, message, file, function, line)
    }
    /// Logs while tracing (swift-log's `trace`).
    public func trace(
        _ message: OSLogMessage, file: String = #fileID, function: String = #function, line: UInt = #line
    ) {
        write(.trace, message, file, function, line)
    }
    /// Logs for debugging.
    public func debug(
        _ message: OSLogMessage, file: String = #fileID, function: String = #function, line: UInt = #line
    ) {
        write(.debug, message, file, function, line)
    }
    /// Logs something helpful but not essential.
    public func info(_ message: OSLogMessage, file: String = #fileID, function: String = #function, line: UInt = #line)
    {
        write(.info, message, file, function, line)
    }
    /// Logs something worth noticing (the default level).
    public func notice(
        _ message: OSLogMessage, file: String = #fileID, function: String = #function, line: UInt = #line
    ) {
        write(.notice, message, file, function, line)
    }
    /// Logs a warning (swift-log's `warning`).
    public func warning(
        _ message: OSLogMessage, file: String = #fileID, function: String = #function, line: UInt = #line
    ) {
        write(.warning, message, file, function, line)
    }
    /// Logs an error.
    public func error(
        _ message: OSLogMessage, file: String = #fileID, function: String = #function, line: UInt = #line
    ) {
        write(.error, message, file, function, line)
    }
    /// Logs a bug in the program (swift-log's `critical`).
    public func fault(
        _ message: OSLogMessage, file: String = #fileID, function: String = #function, line: UInt = #line
    ) {
        write(.critical, message, file, function, line)
    }
    /// Logs a failure the program cannot go on from (swift-log's `critical`).
    public func critical(
        _ message: OSLogMessage, file: String = #fileID, function: String = #function, line: UInt = #line
    ) {
        write(.critical, message, file, function, line)
    }

    private func write(
        _ level: Logging.Logger.Level, _ message: OSLogMessage, _ file: String, _ function: String, _ line: UInt
    ) {
        guard !isDisabled else { return }
        handler.log(level: level, "\(message.rendered)", file: file, function: function, line: line)
    }
}

/// How important a message is: `os`'s log types.
public struct OSLogType: Hashable, Sendable, RawRepresentable {
    /// The type's number, as `os` numbers them.
    public var rawValue: UInt8
    /// A type from its number.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Worth noticing (swift-log's `notice`).
    public static let `default` = OSLogType(rawValue: 0x00)
    /// Helpful (swift-log's `info`).
    public static let info = OSLogType(rawValue: 0x01)
    /// For debugging (swift-log's `debug`).
    public static let debug = OSLogType(rawValue: 0x02)
    /// An error (swift-log's `error`).
    public static let error = OSLogType(rawValue: 0x10)
    /// A bug (swift-log's `critical`).
    public static let fault = OSLogType(rawValue: 0x11)

    var swiftLogLevel: Logging.Logger.Level {
        switch self {
        case .info: .info
        case .debug: .debug
        case .error: .error
        case .fault: .critical
        default: .notice
        }
    }
}

/// A log by subsystem and category, for `os_log` and `Logger(_:)`.
public final class OSLog: Sendable {
    let label: String
    let isDisabled: Bool

    /// The log for `category` of `subsystem`.
    public init(subsystem: String, category: String) {
        label = "\(subsystem).\(category)"
        isDisabled = false
    }

    private init(label: String, isDisabled: Bool) {
        self.label = label
        self.isDisabled = isDisabled
    }

    /// The default log.
    public static let `default` = OSLog(label: "default", isDisabled: false)
    /// A log that writes nothing.
    public static let disabled = OSLog(label: "disabled", isDisabled: true)
}

// os's name, kept so that code calling it compiles.
// swift-format-ignore: AlwaysUseLowerCamelCase
/// Logs `message` to `log` with `type` (`os_log(.error, log: log, "\(name) failed")`), its
/// interpolations rendered as `Logger`'s are.
public func os_log(
    _ type: OSLogType, log: OSLog = .default, _ message: OSLogMessage, file: String = #fileID,
    function: String = #function, line: UInt = #line
) {
    Logger(log).log(level: type, message, file: file, function: function, line: line)
}

// os's name, kept so that code calling it compiles.
// swift-format-ignore: AlwaysUseLowerCamelCase
/// Logs a C-style format (`os_log("%{public}@ failed: %d", log: log, type: .error, name,
/// code)`): each conversion is `String(format:)`'s, a `%{private}` one prints `<private>`.
public func os_log(
    _ format: StaticString, log: OSLog = .default, type: OSLogType = .default, _ arguments: any CVarArg...,
    file: String = #fileID, function: String = #function, line: UInt = #line
) {
    Logger(log).log(
        level: type, OSLogMessage(format: format, arguments: arguments), file: file, function: function, line: line)
}

extension OSLogMessage {
    /// A C-style format as `os_log` takes it: each conversion rendered by
    /// `String(format:)`, `%{public}` ones as they are, `%{private}` ones as `<private>`.
    public init(format: StaticString, arguments: [any CVarArg]) {
        var text = ""
        var rest = Substring("\(format)")
        var next = arguments.makeIterator()
        while let percent = rest.firstIndex(of: "%") {
            text += rest[..<percent]
            rest = rest[rest.index(after: percent)...]
            if rest.first == "%" {
                text += "%"
                rest = rest.dropFirst()
                continue
            }
            var isPrivate = false
            if rest.first == "{", let close = rest.firstIndex(of: "}") {
                isPrivate = rest[rest.index(after: rest.startIndex)..<close].contains("private")
                rest = rest[rest.index(after: close)...]
            }
            let conversions = "diouxXfFeEgGaAcsSp@"
            guard let end = rest.firstIndex(where: { conversions.contains($0) }) else { break }
            let specifier = "%" + rest[...end]
            rest = rest[rest.index(after: end)...]
            guard let argument = next.next() else { break }
            text += isPrivate ? "<private>" : String(format: specifier, argument)
        }
        text += rest
        self.init(rendered: text)
    }
}
