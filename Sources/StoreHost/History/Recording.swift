import StoreValue

extension ShellCore {
    /// Adds an accepted action to its model's history (and the journal), taking a
    /// snapshot every `interval` actions.
    func record(_ action: ActionDescriptor, _ arguments: [Value], source: ActionSource, changed: Bool, in session: Session) {
        guard !rebuilding else { return }
        let key = session.model.qualifiedName
        guard let history = history(of: session) else { return }
        let index = action.index
        history.record(HistoryEntry(action: Int32(index), arguments: arguments, source: source, text: nil, changed: changed, skipped: false))
        if history.wantsSnapshot { history.remember(session.state, at: history.position) }
        journal?.append(.action(model: key, source: source, text: action.text(with: arguments)))
    }

    /// The history of `session`'s model, from a one-entry cache: the same session records
    /// one action after another, and a dictionary lookup per action shows in batch runs.
    func history(of session: Session) -> History? {
        if let cached = historyCache, cached.session === session {
            return cached.history
        }
        let found = histories[session.model.qualifiedName]
        historyCache = found.map { (session, $0) }
        return found
    }

    /// Records an action an effect applied, from the text the plugin reported.
    func recordEffectAction(_ text: String, changed: Bool, in session: Session) {
        guard !rebuilding else { return }
        if let bound = try? ActionBinding.bind(ActionCall.parse(text), to: session.model) {
            record(bound.0, bound.1, source: .effect, changed: changed, in: session)
            return
        }
        let key = session.model.qualifiedName
        histories[key]?.record(HistoryEntry(action: -1, arguments: [], source: .effect, text: text, changed: changed, skipped: false))
        journal?.append(.action(model: key, source: .effect, text: text))
    }
}
