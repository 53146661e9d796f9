// Feed: a news feed whose effects are written the way app code writes them — a load that
// chains three effects deep, a search that merges an immediate publisher with a delayed
// one beside a Future and a timer, and a prefetch that fans out eight requests with
// different latencies. Its transcript (examples/feed.transcript) pins the order storesh
// promises for such effects (docs/ARCHITECTURE.md, "The order of events"), in a worker
// and in process alike.
import ObservableStore
import StorePlugin

struct Feed: ModelProtocol, Codable {
    var status = "idle"
    var stories: [String] = []
    /// What happened, in the order the model saw it.
    var log: [String] = []
    /// Which prefetch requests came back, in the order they came back.
    var arrivals: [Int] = []

    @PluginActions
    enum Action: Codable, Sendable {
        /// Loads the feed: fetches it, ranks it at once, then annotates it.
        case refresh
        /// The fetch came back with `count` stories.
        case fetched(count: Int)
        /// Ranks what was fetched, then asks for annotations.
        case rank
        /// Annotations came back.
        case annotated(String)
        /// Searches: says so at once, suggests from a local index, and shows results later.
        case search(String)
        /// Something for the log.
        case note(String)
        /// Search results came back.
        case results(String)
        /// Fetches the next eight pages, each from a server of its own.
        case prefetch
        /// A prefetched page came back.
        case prefetched(page: Int)
        /// Starts a request, and another when it answers, and a third after that.
        case relay(hops: Int)
    }

    struct Environment {
        let clock: HostClock
        let scheduler: HostScheduler
    }

    /// How long each prefetch server takes, in milliseconds (page 0 is the slowest).
    static let latencies = [80, 10, 70, 20, 60, 30, 50, 40]

    static func update(state: Feed, action: Action, environment: Environment) -> Update<Feed> {
        var next = state
        switch action {
        case .refresh:
            next.status = "loading"
            next.log.append("refresh")
            return Update(
                state: next,
                fx: .task {
                    try? await environment.clock.sleep(for: .milliseconds(50))
                    return .fetched(count: 3)
                })
        case .fetched(let count):
            next.stories = (1...max(1, count)).map { "story \($0)" }
            next.log.append("fetched \(count)")
            return Update(state: next, fx: Just(.rank).eraseToAnyPublisher())
        case .rank:
            next.stories.reverse()
            next.log.append("ranked")
            return Update(
                state: next,
                fx: .task {
                    try? await environment.clock.sleep(for: .milliseconds(30))
                    return .annotated("top story")
                })
        case .annotated(let tag):
            next.status = "ready"
            next.log.append("annotated \(tag)")
            return Update(state: next)
        case .search(let query):
            next.status = "searching"
            let now = Just(Action.note("searching \(query)"))
            let later = Just(Action.results(query)).delay(for: .milliseconds(40), scheduler: environment.scheduler)
            let suggestions = Future<Action, Never> { .note("suggest \(query)s") }
            let recent = Fx<Action>.task {
                try? await environment.clock.sleep(for: .milliseconds(20))
                return .note("recent \(query)")
            }
            return Update(state: next, fx: now.merge(with: later).eraseToAnyPublisher())
                .mergeFx(suggestions.eraseToAnyPublisher())
                .mergeFx(recent)
        case .note(let text):
            next.log.append(text)
            return Update(state: next)
        case .results(let query):
            next.status = "found"
            next.log.append("results for \(query)")
            return Update(state: next)
        case .prefetch:
            next.log.append("prefetch")
            let requests = latencies.enumerated().map { page, latency in
                Effects<Action>.Item(
                    publisher: .task {
                        try? await environment.clock.sleep(for: .milliseconds(latency))
                        return .prefetched(page: page)
                    })
            }
            return Update(state: next, effects: Effects(items: requests))
        case .prefetched(let page):
            next.arrivals.append(page)
            return Update(state: next)
        case .relay(let hops):
            next.log.append("hop \(hops)")
            guard hops > 0 else { return Update(state: next) }
            return Update(
                state: next,
                fx: Future<Action, Never> { .relay(hops: hops - 1) }.eraseToAnyPublisher())
        }
    }
}

let feedModel = PluginModel.observable(
    "feed", doc: "A news feed whose effects chain, merge and fan out.", initial: { Feed() },
    environment: { Feed.Environment(clock: $0.clock, scheduler: $0.scheduler) }
)

@_cdecl("storeplugin_info_v1")
public func pluginInfo() -> UnsafeRawPointer { StorePlugin.info(name: "feed", version: "1.0.0") }

@_cdecl("storeplugin_register_v1")
public func pluginRegister(_ host: UnsafeRawPointer, _ error: UnsafeMutableRawPointer) -> Int32 {
    StorePlugin.register(host: host, error: error, models: [feedModel])
}
