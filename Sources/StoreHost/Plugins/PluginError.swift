/// Why a plugin could not be loaded or used. Every case names the file or symbol and
/// says what was expected; the host keeps running after any of them.
package enum PluginError: Error, Equatable, CustomStringConvertible {
    case notFound(name: String, searched: [String])
    case fileMissing(path: String)
    case notASharedLibrary(path: String, reason: String)
    case missingSymbol(path: String, symbol: String)
    case notAPlugin(path: String, reason: String)
    case abiMismatch(path: String, plugin: UInt32, host: UInt32)
    case toolchainMismatch(path: String, plugin: String, host: String)
    case registrationFailed(path: String, code: Int32, message: String)
    case alreadyLoaded(path: String)
    /// Another file with a plugin of the same name is loaded (a dev build and an installed
    /// copy): their models would have the same qualified names.
    case nameTaken(path: String, name: String, loadedFrom: String)
    /// Another build of a plugin loaded in this process (`--in-process`), under another name.
    case anotherBuildInProcess(path: String, name: String, loadedFrom: String)
    /// `:load PATH as NAME` with a NAME no plugin can have.
    case badAlias(alias: String, reason: String)
    /// The worker process for the plugin could not start, or died loading it.
    case workerFailed(path: String, reason: String)
    /// Loading failed in the worker, which said why (in the words of the cases above).
    case inWorker(message: String)
    case unknownModel(name: String, known: [String])
    case ambiguousModel(name: String, candidates: [String])

    package var description: String {
        switch self {
        case .notFound(let name, let searched):
            return "no plugin named '\(name)' in the search path: "
                + (searched.isEmpty ? "(empty)" : searched.joined(separator: ", "))
        case .fileMissing(let path):
            return "\(path): no such file"
        case .notASharedLibrary(let path, let reason):
            return "\(path): not a loadable shared library (\(reason))"
        case .missingSymbol(let path, let symbol):
            return "\(path): a shared library, but not a storesh plugin: it does not export \(symbol)"
        case .notAPlugin(let path, let reason):
            return "\(path): not a storesh plugin: \(reason)"
        case .abiMismatch(let path, let plugin, let host):
            return
                "\(path): built for plugin ABI version \(plugin), but this host speaks version \(host); rebuild the plugin against this storeplugin.h"
        case .toolchainMismatch(let path, let plugin, let host):
            return
                "\(path): built with a different Swift toolchain (plugin: \(plugin); host: \(host)); rebuild it with the host's toolchain"
        case .registrationFailed(let path, let code, let message):
            return "\(path): the plugin failed to register its models (\(ErrorCode.name(code))): \(message)"
        case .alreadyLoaded(let path):
            return "\(path): already loaded"
        case .nameTaken(let path, let name, let loadedFrom):
            return
                "\(path): a plugin named '\(name)' is already loaded from \(loadedFrom); both would have the same model names, so this one is not loaded (at the prompt, in workers, :load PATH as NAME loads it under another)"
        case .anotherBuildInProcess(let path, let name, let loadedFrom):
            return
                "\(path): another build of the plugin '\(name)' is loaded from \(loadedFrom), in storesh's own process, where two builds of one plugin would share its types; they load side by side in workers (storesh without --in-process)"
        case .badAlias(let alias, let reason):
            return "'\(alias)' cannot name a plugin: \(reason)"
        case .workerFailed(let path, let reason):
            return "\(path): cannot load it in a worker process: \(reason)"
        case .inWorker(let message):
            return message
        case .unknownModel(let name, let known):
            return "no model named '\(name)'"
                + (known.isEmpty ? "; no models are loaded" : "; loaded: \(known.joined(separator: ", "))")
        case .ambiguousModel(let name, let candidates):
            return "'\(name)' names models in several plugins; say which: \(candidates.joined(separator: ", "))"
        }
    }
}

/// The ABI's return codes, by name.
enum ErrorCode {
    /// What a plugin said about a failed call, in words: its message, or what the code
    /// means when it gave none (ABI constant names are for plugin authors, not users).
    static func explain(_ code: Int32, _ message: String) -> String {
        if !message.isEmpty { return message }
        switch code {
        case 1: return "the plugin does not know this action"
        case 2: return "the plugin refused the arguments"
        case 3: return "the plugin refused the action"
        case 5: return "a service failed"
        case 6: return "the plugin ran out of memory"
        default: return "the plugin failed (error \(code))"
        }
    }

    static func name(_ code: Int32) -> String {
        switch code {
        case 0: "SP_OK"
        case 1: "SP_ERR_UNKNOWN_ACTION"
        case 2: "SP_ERR_BAD_ARGUMENTS"
        case 3: "SP_ERR_REJECTED"
        case 4: "SP_ERR_REGISTRATION"
        case 5: "SP_ERR_SERVICE"
        case 6: "SP_ERR_NO_MEMORY"
        case 7: "SP_ERR_INTERNAL"
        default: "error \(code)"
        }
    }
}
