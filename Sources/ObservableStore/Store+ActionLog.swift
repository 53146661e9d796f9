// Upstream's action log: `Store(state:environment:loggingEnabled:logger:)` with an `os`
// logger — the system's on Apple platforms, OSLogOnLinux (over swift-log) elsewhere.
#if canImport(Darwin)
    public import os
#else
    public import OSLogOnLinux
#endif

extension Store {
    /// Upstream's form: a store starting at `state` that, when `loggingEnabled`, logs every
    /// action to `logger` (by default subsystem "ObservableStore", category "Store").
    public convenience init(
        state: Model, environment: Model.Environment, loggingEnabled: Bool, logger: Logger? = nil
    ) {
        self.init(state: state, environment: environment)
        enableActionLog(loggingEnabled, to: logger)
    }

    /// Upstream's form of `init(create:environment:)`, with an action log.
    public convenience init(
        create: (Model.Environment) -> Model.UpdateType, environment: Model.Environment, loggingEnabled: Bool,
        logger: Logger? = nil
    ) {
        self.init(initial: create(environment), environment: environment, logger: nil)
        enableActionLog(loggingEnabled, to: logger)
    }

    /// Upstream's form of `init(create:environment:)` for the default `Update`, with an
    /// action log.
    public convenience init(
        create: (Model.Environment) -> Update<Model>, environment: Model.Environment, loggingEnabled: Bool,
        logger: Logger? = nil
    ) where Model.UpdateType == Update<Model> {
        self.init(initial: create(environment), environment: environment, logger: nil)
        enableActionLog(loggingEnabled, to: logger)
    }

    /// Upstream's form of `init(state:action:environment:)`, with an action log.
    public convenience init(
        state: Model, action: Model.Action, environment: Model.Environment, loggingEnabled: Bool,
        logger: Logger? = nil
    ) {
        self.init(state: state, environment: environment)
        enableActionLog(loggingEnabled, to: logger)
        send(action)
    }

    /// Upstream's form with `loggingEnabled` left at its default (false): the store keeps
    /// `logger` for when `loggingEnabled` is turned on.
    public convenience init(state: Model, environment: Model.Environment, logger: Logger) {
        self.init(state: state, environment: environment, loggingEnabled: false, logger: logger)
    }

    /// Upstream's form of `init(create:environment:)` with an `os` logger and
    /// `loggingEnabled` left at its default (false).
    public convenience init(
        create: (Model.Environment) -> Model.UpdateType, environment: Model.Environment, logger: Logger
    ) {
        self.init(create: create, environment: environment, loggingEnabled: false, logger: logger)
    }

    /// Upstream's form of `init(create:environment:)` for the default `Update`, with an `os`
    /// logger and `loggingEnabled` left at its default (false).
    public convenience init(
        create: (Model.Environment) -> Update<Model>, environment: Model.Environment, logger: Logger
    ) where Model.UpdateType == Update<Model> {
        self.init(create: create, environment: environment, loggingEnabled: false, logger: logger)
    }

    /// Upstream's form of `init(state:action:environment:)` with an `os` logger and
    /// `loggingEnabled` left at its default (false).
    public convenience init(state: Model, action: Model.Action, environment: Model.Environment, logger: Logger) {
        self.init(state: state, action: action, environment: environment, loggingEnabled: false, logger: logger)
    }

    private func enableActionLog(_ enabled: Bool, to logger: Logger?) {
        if let logger { actionLog = ActionLog(logger: logger) }
        loggingEnabled = enabled
    }
}

/// Where a store with `loggingEnabled` writes its actions, as upstream: "Action: …" at the
/// default level.
struct ActionLog: Sendable {
    let logger: Logger

    /// Upstream's default logger.
    static let standard = ActionLog(logger: Logger(subsystem: "ObservableStore", category: "Store"))

    func record(_ action: some Any) {
        logger.log("Action: \(String(describing: action), privacy: .public)")
    }
}
