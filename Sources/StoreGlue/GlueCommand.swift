import Foundation

/// `storesh-glue --module NAME --output FILE SOURCE.swift…`: reads the sources, writes the
/// glue to FILE (only when it changed, so an unchanged target compiles nothing again), and
/// prints what it could not do as compiler diagnostics. Returns the exit status.
package enum GlueCommand {
    package static func run(_ arguments: [String]) -> Int32 {
        var module: String?
        var output: String?
        var sources: [String] = []
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--module": module = rest.popFirst()
            case "--output": output = rest.popFirst()
            case "--help", "-h":
                print("usage: storesh-glue --module NAME --output FILE SOURCE.swift…")
                return 0
            default:
                guard !argument.hasPrefix("-") else { return usage("unknown option \(argument)") }
                sources.append(argument)
            }
        }
        guard let module, let output else { return usage("--module NAME and --output FILE are required") }
        var files: [ParsedFile] = []
        for path in sources.sorted() where !path.hasSuffix("/" + URL(fileURLWithPath: output).lastPathComponent) {
            do {
                files.append(ParsedFile(path: path, text: try String(contentsOfFile: path, encoding: .utf8)))
            } catch {
                return usage("cannot read \(path): \(error.localizedDescription)")
            }
        }
        let result = GlueGenerator.generate(files: files, module: module)
        for diagnostic in result.diagnostics {
            FileHandle.standardError.write(Data((diagnostic.description + "\n").utf8))
        }
        guard !result.failed else { return 1 }
        do {
            let existing = try? String(contentsOfFile: output, encoding: .utf8)
            if existing != result.text {
                try result.text.write(toFile: output, atomically: true, encoding: .utf8)
            }
        } catch {
            return usage("cannot write \(output): \(error.localizedDescription)")
        }
        return 0
    }

    private static func usage(_ problem: String) -> Int32 {
        FileHandle.standardError.write(Data("error: storesh-glue: \(problem)\n".utf8))
        return 2
    }
}
