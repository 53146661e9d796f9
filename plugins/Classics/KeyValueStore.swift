import ObservableStore
import StorePlugin

/// A Bitcask-style key-value store: every put appends an entry to the log, and the keydir
/// maps each key to the version of its latest entry; a get reads the entry the keydir
/// names. Compaction drops the entries no longer needed. The bug: it keeps the first entry
/// of each key instead of the latest, so the keydir names an entry that is gone
/// (`--after get 'found != null || !contains(keydir, args.key)'`, four steps).
struct KeyValueStore: ModelProtocol, Codable {
    /// One write.
    struct Entry: Codable, Sendable, Equatable {
        var key: String
        var value: Int
        var version: Int
    }

    var log: [Entry] = []
    var keydir: [String: Int] = [:]
    var version = 0
    /// What the last get read (null: nothing).
    var found: Int?

    @PluginActions
    enum Action: Codable, Sendable {
        /// Writes a value.
        case put(key: String, value: Int)
        /// Reads a key's value into `found`.
        case get(key: String)
        /// Drops the entries a get can no longer read.
        case compact
    }

    static func update(state: KeyValueStore, action: Action, environment: Build) -> Update<KeyValueStore> {
        var next = state
        switch action {
        case .put(let key, let value):
            next.version += 1
            next.log.append(Entry(key: key, value: value, version: next.version))
            next.keydir[key] = next.version
        case .get(let key):
            let version = next.keydir[key]
            next.found = next.log.first { $0.version == version }?.value
        case .compact:
            if environment == .fixed {
                next.log = next.log.filter { next.keydir[$0.key] == $0.version }
            } else {
                var kept: Set<String> = []
                next.log = next.log.filter { kept.insert($0.key).inserted }
            }
        }
        return Update(state: next)
    }
}
