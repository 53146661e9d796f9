import Foundation
import HostTestSupport
import StoreHost
import Testing

@MainActor
@Suite("Bad plugins: each gives its own error, and the host carries on")
struct BadPluginTests {
    let host = makeHost()
    let directory: URL

    init() throws {
        directory = try Fixtures.directory()
    }

    private func file(_ name: String, _ contents: Data) throws -> String {
        let url = directory.appendingPathComponent(name)
        try contents.write(to: url)
        return url.path
    }

    private func expectLoadError(
        _ path: String, _ matches: (PluginError) -> Bool, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        do {
            try host.load(path)
            Issue.record("\(path) loaded", sourceLocation: sourceLocation)
        } catch {
            #expect(matches(error), "\(error)", sourceLocation: sourceLocation)
            #expect(
                error.description.contains(path), "the message names the file: \(error)", sourceLocation: sourceLocation
            )
        }
    }

    @Test func missingFile() {
        expectLoadError(directory.appendingPathComponent("nothing.so").path) {
            if case .fileMissing = $0 { true } else { false }
        }
    }

    @Test func unknownName() {
        #expect(throws: PluginError.notFound(name: "nosuchplugin", searched: [buildDirectory])) {
            try host.load("nosuchplugin")
        }
    }

    @Test func emptyTextAndRandomFiles() throws {
        let empty = try file("empty.so", Data())
        let text = try file("text.so", Data("hello, I am not a library\n".utf8))
        var generator = SystemRandomNumberGenerator()
        let random = try file("random.so", Data((0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) }))
        for path in [empty, text, random] {
            expectLoadError(path) { if case .notASharedLibrary = $0 { true } else { false } }
        }
    }

    @Test func sharedLibraryWithoutTheEntrySymbol() async throws {
        let library = try await Fixtures.library(
            "libplain.so", source: "int plain_function(void) { return 42; }", in: directory)
        expectLoadError(library) { error in
            guard case .missingSymbol(_, let symbol) = error else { return false }
            return symbol == "storeplugin_info_v1"
        }
    }

    @Test func futureABIVersion() async throws {
        let source = Fixtures.plugin(
            info: #"{ sizeof(storeplugin_info), STOREPLUGIN_MAGIC, 2, "future", "9.0.0", 0 }"#,
            register: "(void)host; (void)error; return SP_ERR_INTERNAL;"
        )
        let library = try await Fixtures.library("libfuture.so", source: source, in: directory)
        expectLoadError(library) { $0 == .abiMismatch(path: library, plugin: 2, host: 1) }
    }

    @Test func badMagic() async throws {
        let source = Fixtures.plugin(
            info: #"{ sizeof(storeplugin_info), 0x12345678u, STOREPLUGIN_ABI_VERSION, "magic", "1.0", 0 }"#,
            register: "(void)host; (void)error; return SP_OK;"
        )
        let library = try await Fixtures.library("libmagic.so", source: source, in: directory)
        expectLoadError(library) { error in
            guard case .notAPlugin(_, let reason) = error else { return false }
            return reason.contains("bad magic")
        }
    }

    @Test func toolchainMismatch() async throws {
        let source = Fixtures.plugin(
            info:
                #"{ sizeof(storeplugin_info), STOREPLUGIN_MAGIC, STOREPLUGIN_ABI_VERSION, "other", "1.0", "swift-0.0-other" }"#,
            register: "(void)host; (void)error; return SP_OK;"
        )
        let library = try await Fixtures.library("libother.so", source: source, in: directory)
        expectLoadError(library) {
            $0 == .toolchainMismatch(path: library, plugin: "swift-0.0-other", host: PluginHost.toolchain)
        }
    }

    @Test func registrationFailure() async throws {
        let source = Fixtures.plugin(
            info: #"{ sizeof(storeplugin_info), STOREPLUGIN_MAGIC, STOREPLUGIN_ABI_VERSION, "failing", "1.0", 0 }"#,
            register:
                #"(void)host; snprintf(error->message, sizeof error->message, "database is locked"); return SP_ERR_SERVICE;"#
        ).replacingOccurrences(of: "#include \"storeplugin.h\"", with: "#include \"storeplugin.h\"\n#include <stdio.h>")
        let library = try await Fixtures.library("libfailing.so", source: source, in: directory)
        expectLoadError(library) { $0 == .registrationFailed(path: library, code: 5, message: "database is locked") }
    }

    @Test func malformedModelIsRefusedByTheHost() async throws {
        let source = Fixtures.plugin(
            info: #"{ sizeof(storeplugin_info), STOREPLUGIN_MAGIC, STOREPLUGIN_ABI_VERSION, "malformed", "1.0", 0 }"#,
            register:
                #"sp_model model = { sizeof(sp_model), "bad name!", "doc" }; return host->register_model(host->host_data, &model, error);"#
        )
        let library = try await Fixtures.library("libmalformed.so", source: source, in: directory)
        expectLoadError(library) { error in
            guard case .registrationFailed(_, let code, let message) = error else { return false }
            return code == 4 && message.contains("[A-Za-z_]")
        }
    }

    /// An action named "`return`" (a Swift keyword in backticks, before @PluginActions
    /// dropped them) was refused as "an action has no valid name", naming none.
    @Test func anActionWithABadNameIsNamedInTheRefusal() async throws {
        let source = Fixtures.plugin(
            info: #"{ sizeof(storeplugin_info), STOREPLUGIN_MAGIC, STOREPLUGIN_ABI_VERSION, "keyword", "1.0", 0 }"#,
            register: """
                static const sp_action actions[] = {
                    { sizeof(sp_action), "open", "", 0, 0, 0, 0, 0 },
                    { sizeof(sp_action), "`return`", "", 0, 0, 0, 0, 0 },
                };
                sp_model model = { sizeof(sp_model), "keyword", "doc", actions, 2, 0, 0, 0,
                    (void *)1, (void *)1, (void *)1, (void *)1 };
                return host->register_model(host->host_data, &model, error);
                """
        )
        let library = try await Fixtures.library("libkeyword.so", source: source, in: directory)
        expectLoadError(library) { error in
            guard case .registrationFailed(_, _, let message) = error else { return false }
            return message.contains(#"action 2 has no valid name: "`return`""#)
        }
    }

    /// `sp_model.invariants`: checks the model declares, read at registration. One that
    /// does not read is refused, naming it and the column; good ones reach the schema.
    @Test(arguments: [
        (#""count > ""#, #"invariant 1 "count > ": column 9: expected a value after '>'"#), (#""count >= 0""#, nil),
    ])
    func declaredInvariantsAreReadAtRegistration(_ second: String, refusal: String?) async throws {
        let name = refusal == nil ? "goodchecks" : "badchecks"
        let source = Fixtures.plugin(
            info: #"{ sizeof(storeplugin_info), STOREPLUGIN_MAGIC, STOREPLUGIN_ABI_VERSION, "\#(name)", "1.0", 0 }"#,
            register: """
                static const char *const checks[] = { "items[0].qty > 0", \(second), 0 };
                sp_model model = { sizeof(sp_model), "\(name)", "doc", 0, 0, 0, 0, 0,
                    (void *)1, (void *)1, (void *)1, (void *)1 };
                model.invariants = checks;
                return host->register_model(host->host_data, &model, error);
                """
        )
        let library = try await Fixtures.library("lib\(name).so", source: source, in: directory)
        if let refusal {
            expectLoadError(library) { error in
                guard case .registrationFailed(_, _, let message) = error else { return false }
                return message.contains(refusal)
            }
        } else {
            let plugin = try host.load(library)
            #expect(plugin.models.first?.invariants.map(\.description) == ["items[0].qty > 0", "count >= 0"])
        }
    }

    @Test func aGoodPluginStillLoadsAfterEveryFailure() throws {
        #expect(throws: (any Error).self) { try host.load(directory.appendingPathComponent("nothing.so").path) }
        let text = try file("text2.so", Data("text".utf8))
        #expect(throws: (any Error).self) { try host.load(text) }
        let plugin = try host.load("Counter")
        #expect(plugin.models.map(\.name) == ["counter"])
        let session = try Session(model: host.model(named: "counter"), host: host)
        _ = try session.send(text: "increment")
        #expect(session.state["count"] == .int(1))
    }

    @Test func sameModelNameInTwoPluginsMustBeQualified() async throws {
        let source = Fixtures.plugin(
            info: #"{ sizeof(storeplugin_info), STOREPLUGIN_MAGIC, STOREPLUGIN_ABI_VERSION, "twin", "1.0", 0 }"#,
            register: """
                sp_model model = { sizeof(sp_model), "counter", "a second counter", 0, 0, 0, 0, 0,
                    (void *)1, (void *)1, (void *)1, (void *)1 };
                return host->register_model(host->host_data, &model, error);
                """
        )
        let library = try await Fixtures.library("libtwin.so", source: source, in: directory)
        try host.load("Counter")
        try host.load(library)
        #expect(throws: PluginError.ambiguousModel(name: "counter", candidates: ["counter.counter", "twin.counter"])) {
            try host.model(named: "counter")
        }
        #expect(try host.model(named: "twin.counter").doc == "a second counter")
    }
}
