package import Foundation
import TestSupport

/// Builds small C libraries against storeplugin.h at test time, with the C compiler that
/// comes with the toolchain, into a fresh temporary directory.
package enum Fixtures {
    package static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    package static let header = repository.appendingPathComponent("Sources/CStorePlugin/include").path

    package static func directory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("storesh-fixtures-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    package static func compiler() -> String {
        for candidate in ["/usr/bin/cc", "/usr/bin/clang", "/usr/bin/gcc"]
        where FileManager.default.isExecutableFile(atPath: candidate) {
            return candidate
        }
        return "clang"
    }

    /// Compiles `source` into `name` in `directory`; returns the library's path.
    package static func library(_ name: String, source: String, in directory: URL) async throws -> String {
        let sourceFile = directory.appendingPathComponent(name + ".c")
        try source.write(to: sourceFile, atomically: true, encoding: .utf8)
        let output = directory.appendingPathComponent(name).path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [compiler(), "-shared", "-fPIC", "-I", header, "-o", output, sourceFile.path]
        guard try await runToExit(process) == 0 else { throw CompileFailed(name: name) }
        return output
    }

    package struct CompileFailed: Error { package let name: String }

    /// A plugin skeleton whose info and entry point are given as C code.
    package static func plugin(info: String, register: String) -> String {
        """
        #include "storeplugin.h"
        static const storeplugin_info info = \(info);
        const storeplugin_info *storeplugin_info_v1(void) { return &info; }
        int32_t storeplugin_register_v1(const storeplugin_host *host, sp_error *error) { \(register) }
        """
    }
}
