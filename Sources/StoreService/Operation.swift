import StoreShell
package import StoreValue

/// One thing a client may ask of a session, described so that any transport can offer
/// it: MCP lists each as a tool with a JSON Schema made from `parameters`, and a page of
/// the inspector can make a form of the same list. The operation itself is a shell line
/// made of its arguments, or (an action's operation) the action with its arguments as
/// values (`Work`), so every operation reports what the shell reports, with the shell's
/// errors.
package struct Operation: Sendable {
    /// What the shell is given to do it.
    enum Work: Sendable {
        /// A shell line made of the arguments already checked: a `:command`, or the line
        /// a client gave (`send`, `run`).
        case line(@Sendable (OperationArguments) throws(OperationError) -> String)
        /// An action of the current model (its schema name), sent with the arguments as
        /// values: `parameters` names the argument for each of its parameters, in order.
        case action(String, parameters: [String])
        /// A `:command` done through its typed entry point on the core, with the arguments
        /// as values (no shell line is written to be read again): what `entry` makes of
        /// the arguments already checked, or the refusal of a value the command cannot take.
        case call(command: String, entry: @Sendable (OperationArguments) throws(OperationError) -> Entry)
    }

    /// What a `.call` does: the command as it would be typed (written from the values, for
    /// the tape and the log of what ran; never read again), and its typed entry point.
    struct Entry: Sendable {
        let text: String
        let run: @MainActor @Sendable (ShellCore, LineOrigin) async -> Bool

        init(_ text: String, _ run: @escaping @MainActor @Sendable (ShellCore, LineOrigin) async -> Bool) {
            (self.text, self.run) = (text, run)
        }
    }

    /// The name a client calls it by (`send`, `state`, `action_increment`).
    package let name: String
    /// What it does, in a sentence or two, for the client's reader (a person or a model).
    package let summary: String
    /// Its parameters, in the order their words go on the shell line.
    package let parameters: [OperationParameter]
    /// True when it only reads: the `:command` it runs never changes a state
    /// (`ShellCore.commandReadsOnly`, the one table of them).
    package let readsOnly: Bool
    /// How to ask for less when an answer is cut at the size limit.
    package let narrowing: String
    /// What the shell does for it, from arguments already checked against `parameters`.
    let work: Work

    /// An operation whose work is the shell line `line` makes of its arguments; `command`
    /// names the `:command` that line runs (nil for an action or any line).
    package init(
        name: String, summary: String, parameters: [OperationParameter] = [], command: String? = nil,
        narrowing: String = "ask for less",
        line: @escaping @Sendable (OperationArguments) throws(OperationError) -> String
    ) {
        self.name = name
        self.summary = summary
        self.parameters = parameters
        self.readsOnly = command.map(ShellCore.commandReadsOnly) ?? false
        self.narrowing = narrowing
        self.work = .line(line)
    }

    /// An operation whose work is the `:command` `command` done through its typed entry
    /// point: `entry` makes, of the arguments already checked, what the core is asked.
    init(
        name: String, summary: String, parameters: [OperationParameter] = [], command: String,
        narrowing: String = "ask for less",
        entry: @escaping @Sendable (OperationArguments) throws(OperationError) -> Entry
    ) {
        self.name = name
        self.summary = summary
        self.parameters = parameters
        self.readsOnly = ShellCore.commandReadsOnly(command)
        self.narrowing = narrowing
        self.work = .call(command: command, entry: entry)
    }

    /// The operation that sends `action` of the current model, one argument per parameter
    /// (`argumentNames`, in the action's order).
    init(
        name: String, summary: String, parameters: [OperationParameter], narrowing: String, action: String,
        argumentNames: [String]
    ) {
        self.name = name
        self.summary = summary
        self.parameters = parameters
        self.readsOnly = false
        self.narrowing = narrowing
        self.work = .action(action, parameters: argumentNames)
    }
}

/// One parameter of an `Operation`.
package struct OperationParameter: Sendable, Equatable {
    /// What a value of the parameter may be.
    package enum Kind: Sendable, Equatable {
        case string, int, number, bool
        /// Any value: a number, string, list, record (a JSON object) or null.
        case value
        /// One of these words.
        case choice([String])
    }

    /// The name its argument goes by.
    package let name: String
    /// What its values may be.
    package let kind: Kind
    /// True when a call must give it.
    package let required: Bool
    /// What it means, for the client's reader.
    package let doc: String
    /// What its values look like, deeper than `kind` (an action argument's shape): what
    /// a client's schema shows. The action's own binding checks it.
    package let shape: TypeShape?

    /// A parameter called `name` of `kind`, described by `doc`.
    package init(_ name: String, _ kind: Kind, required: Bool = false, doc: String, shape: TypeShape? = nil) {
        self.name = name
        self.kind = kind
        self.required = required
        self.doc = doc
        self.shape = shape
    }
}

/// A refusal before anything ran: an argument missing, unknown or of the wrong kind.
package struct OperationError: Error, Equatable, Sendable {
    /// What was wrong, for the client's reader.
    package let message: String

    /// A refusal saying `message`.
    package init(_ message: String) {
        self.message = message
    }
}

/// The arguments of one call, checked against its operation's parameters.
package struct OperationArguments: Sendable {
    /// The arguments by parameter name.
    package let values: [String: Value]

    /// Checks `values` against `operation`: every required parameter is there, every name
    /// is a parameter, and every value is of its parameter's kind (an int is a number too).
    init(_ values: [String: Value], for operation: Operation) throws(OperationError) {
        let known = operation.parameters.map(\.name)
        for name in values.keys.sorted() where !known.contains(name) {
            let list = known.isEmpty ? "it takes none" : "its parameters: \(known.joined(separator: ", "))"
            throw OperationError("\(operation.name) has no parameter '\(name)'; \(list)")
        }
        for parameter in operation.parameters {
            guard let value = values[parameter.name], value != .null || parameter.kind == .value else {
                if parameter.required {
                    throw OperationError("\(operation.name) needs '\(parameter.name)' (\(parameter.kind.word))")
                }
                continue
            }
            guard parameter.kind.accepts(value) else {
                throw OperationError(
                    "\(operation.name): '\(parameter.name)' should be \(parameter.kind.word), not \(value.kindName) \(value.compact)"
                )
            }
        }
        let anyValue = Set(operation.parameters.filter { $0.kind == .value }.map(\.name))
        self.values = values.filter { $0.value != .null || anyValue.contains($0.key) }
    }

    /// The string argument `name`, if given.
    package func string(_ name: String) -> String? {
        if case .string(let text)? = values[name] { return text }
        return nil
    }

    /// The int argument `name`, if given.
    package func int(_ name: String) -> Int64? {
        if case .int(let number)? = values[name] { return number }
        return nil
    }

    /// The bool argument `name`; false when not given.
    package func flag(_ name: String) -> Bool {
        values[name] == .bool(true)
    }

    /// The argument `name` as a shell word: quoted (with JSON escapes) when it holds a space,
    /// a quote, a backslash or a control character, as `:load "my plugins/x.so"`.
    package func word(_ name: String) -> String? {
        string(name).map(CommandWords.quoted)
    }
}

extension OperationParameter.Kind {
    /// How an error names the kind: "a string", "an int", "one of a, b".
    var word: String {
        switch self {
        case .string: "a string"
        case .int: "an int"
        case .number: "a number"
        case .bool: "a boolean"
        case .value: "a value"
        case .choice(let words): "one of " + words.joined(separator: ", ")
        }
    }

    func accepts(_ value: Value) -> Bool {
        switch (self, value) {
        case (.value, _), (.string, .string), (.int, .int), (.number, .int), (.number, .double), (.bool, .bool): true
        case (.choice(let words), .string(let word)): words.contains(word)
        default: false
        }
    }
}
