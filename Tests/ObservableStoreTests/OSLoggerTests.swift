import Logging
import ObservableStore
import Testing
import os

/// `os.Logger` on Linux: upstream's messages, with `privacy:`, `format:` and `align:`,
/// reach swift-log at the level their names say.
@MainActor
@Suite("os.Logger over swift-log")
struct OSLoggerTests {
    /// An os logger writing to a capturing swift-log handler.
    func capturing(_ messages: Locked<[String]>) -> os.Logger {
        os.Logger(handler: Logging.Logger(label: "test") { _ in CapturingLogHandler(messages: messages) })
    }

    @Test func eachLevelReachesSwiftLogsNearestLevel() {
        let messages = Locked<[String]>([])
        let logger = capturing(messages)
        logger.trace("t")
        logger.debug("d")
        logger.info("i")
        logger.notice("n")
        logger.log("l")
        logger.warning("w")
        logger.error("e")
        logger.fault("f")
        logger.critical("c")
        logger.log(level: .error, "le")
        #expect(
            messages.current == [
                "trace t", "debug d", "info i", "notice n", "notice l", "warning w", "error e", "critical f",
                "critical c", "error le",
            ])
    }

    @Test func privateValuesAreRedactedAndPublicOnesShown() {
        let messages = Locked<[String]>([])
        let logger = capturing(messages)
        let user = "ada@example.com"
        logger.info("user \(user, privacy: .public) \(user, privacy: .private) \(user, privacy: .sensitive)")
        logger.info("auto \(user) \(user, privacy: .auto)")
        logger.info("hashed \(user, privacy: .private(mask: .hash)) \(user, privacy: .private(mask: .hash))")
        let lines = messages.current
        #expect(lines[0] == "info user ada@example.com <private> <private>")
        #expect(lines[1] == "info auto ada@example.com ada@example.com")
        let hashed = lines[2].split(separator: " ").dropFirst(2).joined(separator: " ")
        #expect(hashed.hasPrefix("<mask.hash: ") && !hashed.contains("ada"), "\(hashed)")
        let halves = lines[2].components(separatedBy: "> <")
        #expect(halves.count == 2 && halves[0].hasSuffix(halves[1].dropLast()), "one value, one digest: \(lines[2])")
    }

    @Test func numbersTakeFormatAndAlignment() {
        let messages = Locked<[String]>([])
        let logger = capturing(messages)
        logger.debug(
            "\(255, format: .hex) \(255, format: .hex(includePrefix: true, uppercase: true)) \(7, format: .decimal(minDigits: 3))"
        )
        logger.debug(
            "\(-5, format: .decimal(explicitPositiveSign: true)) \(5, format: .decimal(explicitPositiveSign: true))")
        logger.debug("[\(42, align: .right(columns: 5))] [\("ab", align: .left(columns: 4))]")
        logger.debug("\(3.14159, format: .fixed(precision: 2)) \(true) \(false, format: .answer)")
        #expect(messages.current == ["debug ff 0xFF 007", "debug -5 +5", "debug [   42] [ab  ]", "debug 3.14 true NO"])
    }

    @Test func osLogWritesThroughTheSameLoggers() {
        let log = OSLog(subsystem: "com.example.notes", category: "Sync")
        os_log("synced %d notes for %{public}@", log: log, type: .info, 3, "ada")
        os_log(.error, log: log, "failed \(2) times")
        os_log("nothing", log: .disabled, type: .fault)
        #expect(os.Logger(log).handler.label == "com.example.notes.Sync")
        let formatted = OSLogMessage(
            format: "synced %d notes for %{public}@ by %{private}@, 100%% %.1f", arguments: [3, "ada", "bob", 0.5])
        #expect(formatted.rendered == "synced 3 notes for ada by <private>, 100% 0.5")
    }

    @Test func aStoreWithLoggingEnabledLogsEachActionAsUpstream() {
        let messages = Locked<[String]>([])
        let store = Store(
            state: Counter(), environment: (), loggingEnabled: true, logger: capturing(messages))
        store.send(.increment)
        store.loggingEnabled = false
        store.send(.increment)
        #expect(messages.current == ["notice Action: increment"])
        #expect(store.state.count == 2)
        let quiet = Store(state: Counter(), action: .setCount(4), environment: (), loggingEnabled: false)
        #expect(quiet.state.count == 4)
        let created = Store(
            create: { _ in Update(state: Counter(count: 1)) }, environment: (), loggingEnabled: true,
            logger: capturing(messages))
        created.send(.decrement)
        #expect(messages.current.last == "notice Action: decrement")
    }

    /// Upstream's `init(state:environment:loggingEnabled:logger:)` with `loggingEnabled` left
    /// out: it defaults to false, and the store keeps the logger for when it is turned on.
    @Test func anOSLoggerWithoutLoggingEnabledIsKeptForLater() {
        let messages = Locked<[String]>([])
        let store = Store(state: Counter(), environment: (), logger: capturing(messages))
        store.send(.increment)
        #expect(messages.current.isEmpty, "loggingEnabled defaults to false, as upstream")
        store.loggingEnabled = true
        store.send(.increment)
        #expect(messages.current == ["notice Action: increment"])
        let created = Store(
            create: { _ in Update(state: Counter(count: 1)) }, environment: (), logger: capturing(messages))
        created.loggingEnabled = true
        created.send(.decrement)
        #expect(messages.current.last == "notice Action: decrement")
        let acted = Store(state: Counter(), action: .setCount(3), environment: (), logger: capturing(messages))
        #expect(acted.state.count == 3)
        #expect(messages.current.count == 2, "the first action is not logged: logging is off")
    }
}
