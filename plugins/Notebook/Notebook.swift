// Notebook: a notes model written the way app code is, with nothing injected — its update
// calls UUID(), Date(), Int.random and keeps a Set; its effects wait with Task.sleep (both
// forms), DispatchQueue.main.asyncAfter and Combine's delay on DispatchQueue.main. Under
// storesh's virtual clock, in a worker, it gives the same bytes on every run
// (examples/notebook.transcript; docs/decisions/0002-a-deterministic-world-in-the-worker.md).
// Like most app code, it is compiled in the Swift 5 language mode.
import Dispatch
import Foundation
import ObservableStore
import StorePlugin

struct Note: Codable, Equatable, Sendable {
    var id: String
    var text: String
    var created: String
}

struct Notebook: ModelProtocol, Codable {
    var notes: [Note] = []
    var tags: Set<String> = []
    var dice = 0
    var deck = ["A", "B", "C", "D", "E"]
    var status = "idle"
    var lastSync: String?
    var toasts: [String] = []

    @PluginActions
    enum Action: Codable, Sendable {
        /// Adds a note: a fresh id, the time now, and its words as tags.
        case add(String)
        /// Rolls a die and shuffles the deck.
        case roll
        /// Saves after a pause (Task.sleep(nanoseconds:)), then syncs (Task.sleep(for:)).
        case save
        /// The save came back.
        case saved
        /// The sync came back, at this time.
        case synced(String)
        /// Shows a toast, and dismisses it after `ms` milliseconds (DispatchQueue.main.asyncAfter).
        case toast(String, ms: Int)
        /// A toast went away.
        case dismissed(String)
        /// Searches after the user stops typing (Combine's delay on DispatchQueue.main).
        case search(String)
        /// A search ran.
        case searched(String)
        /// Tells analytics, fire and forget, in a task of its own (the state does not change).
        case track(String)
    }

    static func stamp(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }

    static func update(state: Notebook, action: Action, environment: Void) -> Update<Notebook> {
        var next = state
        switch action {
        case .add(let text):
            next.notes.append(Note(id: UUID().uuidString, text: text, created: stamp(Date())))
            for word in text.split(separator: " ") { next.tags.insert(String(word)) }
            return Update(state: next)
        case .roll:
            next.dice = Int.random(in: 1...6)
            next.deck.shuffle()
            return Update(state: next)
        case .save:
            next.status = "saving"
            return Update(
                state: next,
                fx: .task {
                    try? await Task.sleep(nanoseconds: 30_000_000)
                    return .saved
                })
        case .saved:
            next.status = "syncing"
            return Update(
                state: next,
                fx: .task {
                    try? await Task.sleep(for: .milliseconds(50))
                    return .synced(stamp(Date()))
                })
        case .synced(let time):
            next.status = "idle"
            next.lastSync = time
            return Update(state: next)
        case .toast(let text, let ms):
            next.toasts.append(text)
            let dismiss = Deferred {
                Future<Action, Never> { promise in
                    DispatchQueue.main.asyncAfter(deadline: .now() + .milliseconds(ms)) {
                        promise(.success(.dismissed(text)))
                    }
                }
            }
            return Update(state: next, fx: dismiss.eraseToAnyPublisher())
        case .dismissed(let text):
            next.toasts.removeAll { $0 == text }
            return Update(state: next)
        case .search(let query):
            next.status = "typing"
            let later = Just(Action.searched(query)).delay(for: .milliseconds(40), scheduler: DispatchQueue.main)
            return Update(state: next, fx: later.eraseToAnyPublisher())
        case .searched(let query):
            next.status = "searched \(query)"
            return Update(state: next)
        case .track(let event):
            Task.detached { await Analytics.shared.log(event) }
            return Update(state: next)
        }
    }
}

/// Where `track` sends events: an actor, as app code has one.
actor Analytics {
    static let shared = Analytics()
    private(set) var events: [String] = []
    func log(_ event: String) { events.append(event) }
}

/// A lottery that draws from /dev/urandom itself, as no model should: the one thing the
/// deterministic world leaves real, so `storesh explore` finds it is not deterministic.
struct Lottery: ModelProtocol, Codable {
    var ticket: Int = 0

    @PluginActions
    enum Action: Codable, Sendable {
        /// Draws a ticket from the system's entropy.
        case draw
    }

    static func update(state: Lottery, action: Action, environment: Void) -> Update<Lottery> {
        var next = state
        var byte: UInt8 = 0
        let fd = open("/dev/urandom", O_RDONLY)
        if fd >= 0 {
            _ = read(fd, &byte, 1)
            close(fd)
        }
        next.ticket = Int(byte)
        return Update(state: next)
    }
}

let lotteryModel = PluginModel.observable(
    "lottery", doc: "Draws from /dev/urandom itself: not deterministic, whatever the world.",
    initial: { Lottery() }, environment: { _ in () }
)

let notebookModel = PluginModel.observable(
    "notebook", doc: "Notes written like app code: ids, dates, dice, sleeps and delays, nothing injected.",
    initial: { Notebook() }, environment: { _ in () }
)

@_cdecl("storeplugin_info_v1")
public func pluginInfo() -> UnsafeRawPointer { StorePlugin.info(name: "notebook", version: "1.0.0") }

@_cdecl("storeplugin_register_v1")
public func pluginRegister(_ host: UnsafeRawPointer, _ error: UnsafeMutableRawPointer) -> Int32 {
    StorePlugin.register(host: host, error: error, models: [notebookModel, lotteryModel])
}
