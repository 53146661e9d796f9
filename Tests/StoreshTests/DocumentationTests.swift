import Foundation
import Testing

/// The documentation a newcomer reads: a README that is a front door, and links that lead
/// somewhere.
@Suite("documentation")
struct DocumentationTests {
    /// The checkout these tests run in.
    let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Every Markdown file people read: the README, CONTRIBUTING, docs/ and the DocC catalogs.
    func markdownFiles() throws -> [URL] {
        var files = [checkout.appendingPathComponent("README.md"), checkout.appendingPathComponent("CONTRIBUTING.md")]
        for folder in ["docs", "Sources", "plugins"] {
            let root = checkout.appendingPathComponent(folder)
            guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else {
                throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: root.path])
            }
            for case let file as URL in walker where file.pathExtension == "md" { files.append(file) }
        }
        return files
    }

    /// `[text](target)` links, with the line each is on; code spans and fenced blocks left out.
    func links(in text: String) -> [(line: Int, target: String)] {
        var found: [(Int, String)] = []
        var inFence = false
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if line.hasPrefix("```") {
                inFence.toggle()
                continue
            }
            if inFence { continue }
            let prose = line.replacing(/`[^`]*`/, with: "")
            for match in prose.matches(of: /\]\(([^)\s]+)\)/) { found.append((number + 1, String(match.output.1))) }
        }
        return found
    }

    /// The design map names every module and program: a folder under Sources/ that
    /// ARCHITECTURE.md does not mention in its table of targets is a module nobody
    /// placed in the layers.
    @Test func theArchitectureNamesEveryTarget() throws {
        let map = try String(contentsOf: checkout.appendingPathComponent("docs/ARCHITECTURE.md"), encoding: .utf8)
        let folders = try FileManager.default.contentsOfDirectory(
            atPath: checkout.appendingPathComponent("Sources").path)
        #expect(folders.count >= 20, "\(folders)")
        // A row's first cell names one target, or a few that belong together (`A`, `B`).
        let firstCells = map.split(separator: "\n").compactMap { line in
            line.hasPrefix("| ") ? line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().first : nil
        }
        let unnamed = folders.filter { folder in
            !firstCells.contains { $0.contains("`\(folder)`") } && !map.contains("`\(folder)/")
        }.sorted()
        #expect(unnamed.isEmpty, "docs/ARCHITECTURE.md has no row for \(unnamed)")
    }

    @Test func everyRelativeLinkResolves() throws {
        var broken: [String] = []
        var checked = 0
        for file in try markdownFiles() {
            let text = try String(contentsOf: file, encoding: .utf8)
            for (line, target) in links(in: text) {
                if target.contains("://") || target.hasPrefix("mailto:") || target.hasPrefix("#")
                    || target.hasPrefix("doc:")
                {
                    continue
                }
                let path = String(target.split(separator: "#", maxSplits: 1)[0])
                let resolved = file.deletingLastPathComponent().appendingPathComponent(path).standardizedFileURL
                checked += 1
                if !FileManager.default.fileExists(atPath: resolved.path) {
                    broken.append(
                        "\(file.path.dropFirst(checkout.path.count + 1)):\(line): \(target) (no \(resolved.path))")
                }
            }
        }
        #expect(checked > 20, "the README and the guides link to each other")
        #expect(broken.isEmpty, "broken links:\n\(broken.joined(separator: "\n"))")
    }

    /// The README had grown to 51 KB, with "Start here" at line 395: a newcomer's page
    /// holds what the first hour needs, and links to the rest.
    @Test func theReadmeIsAFrontDoor() throws {
        let readme = try String(contentsOf: checkout.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(
            readme.utf8.count <= 16 * 1024, "README.md is \(readme.utf8.count) bytes; reference material goes to docs/")
        let sections = readme.split(separator: "\n").filter { $0.hasPrefix("## ") }.map { String($0.dropFirst(3)) }
        for needed in [
            "Quick start", "Install", "A first plugin in Swift", "A first transcript test", "Why these dependencies",
        ] {
            #expect(sections.contains(needed), "README has no '\(needed)' section: \(sections)")
        }
        let quickStart = readme.components(separatedBy: "## Quick start")[1].components(separatedBy: "## ")[0]
        let commands = quickStart.split(separator: "\n").filter { $0.hasPrefix("scripts/") }
        #expect(
            commands.map { $0.split(separator: " ")[0] } == ["scripts/run", "scripts/test"],
            "the quick start is two commands: \(commands)")
        for command in ["scripts/run", "scripts/test", "scripts/install"] {
            #expect(
                FileManager.default.isExecutableFile(atPath: checkout.appendingPathComponent(command).path),
                "\(command)")
        }
        #expect(readme.contains("docs/shell/json-output.md"))
    }

    /// Every document that names the worker protocol's or the plugin ABI's version names
    /// the one the code speaks, and every document about storesh (the README, CONTRIBUTING,
    /// `docs/` with the shell guide and the decision records) names it: a protocol bump that
    /// leaves a document behind fails here, not in a reader's hands. Versions inside code
    /// spans (an example error message) are quoted text, not claims.
    @Test func everyDocumentNamesTheVersionsTheCodeSpeaks() throws {
        func source(_ path: String) throws -> String {
            try String(contentsOf: checkout.appendingPathComponent(path), encoding: .utf8)
        }
        let protocolVersion = try #require(
            try source("Sources/StoreHost/Worker/WorkerProtocol.swift").firstMatch(
                of: /static let version: UInt32 = (\d+)/)?.output.1)
        let abiVersion = try #require(
            try source("Sources/CStorePlugin/include/storeplugin.h").firstMatch(
                of: /#define STOREPLUGIN_ABI_VERSION (\d+)u/)?.output.1)
        var wrong: [String] = []
        var naming: Set<String> = []
        for file in try markdownFiles() {
            let name = String(file.path.dropFirst(checkout.path.count + 1))
            for (number, line) in try String(contentsOf: file, encoding: .utf8).split(
                separator: "\n", omittingEmptySubsequences: false
            ).enumerated() {
                // A line about the protocol (in words, or naming its document): every version
                // it names but the ABI's is the protocol's.
                let prose = line.replacing(/`[^`]*`/, with: "")
                let aboutTheProtocol = line.contains("worker-protocol") || prose.contains(/[Pp]rotocol/)
                let claims = prose.matches(of: /(ABI )?version (\d+)|\((\d+) today/).compactMap { match in
                    if let today = match.output.3 { return aboutTheProtocol ? ("protocol", today) : nil }
                    guard let number = match.output.2 else { return nil }
                    return match.output.1 != nil ? ("ABI", number) : aboutTheProtocol ? ("protocol", number) : nil
                }
                for (kind, stated) in claims {
                    naming.insert(name)
                    let spoken = kind == "ABI" ? abiVersion : protocolVersion
                    if stated != spoken {
                        wrong.append("\(name):\(number + 1): \(kind) version \(stated), the code speaks \(spoken)")
                    }
                }
            }
        }
        #expect(wrong.isEmpty, "\(wrong.joined(separator: "\n"))")
        let aboutStoresh = try markdownFiles().map { String($0.path.dropFirst(checkout.path.count + 1)) }.filter {
            $0 == "README.md" || $0 == "CONTRIBUTING.md" || $0.hasPrefix("docs/")
        }
        #expect(aboutStoresh.count > 30, "the documents about storesh were not found: \(aboutStoresh)")
        let silent = aboutStoresh.filter { !naming.contains($0) }.sorted()
        #expect(silent.isEmpty, "these name no version: \(silent)")
    }

    /// The map stays a map, and the README a front door: ARCHITECTURE within 25,000 bytes
    /// (House II), the README within 16 KiB.
    @Test func theMapAndTheFrontDoorKeepTheirSize() throws {
        for (path, limit) in [("docs/ARCHITECTURE.md", 25_000), ("README.md", 16_384)] {
            let size = try Data(contentsOf: checkout.appendingPathComponent(path)).count
            #expect(size <= limit, "\(path) is \(size) bytes, over its \(limit)")
        }
    }

    /// The walk of an action's page is measured by `scripts/walk-of-an-action --check`, which
    /// needs a build of its own and is not run here; what it checks of the page itself is: a
    /// row's "(n)" is the number of files it names, a section's heading the number in it, and
    /// the total the number of distinct files, so an edit that drops or adds a file without
    /// its counts fails in CI.
    @Test func theWalkOfAnActionCountsTheFilesItNames() throws {
        let page = try String(
            contentsOf: checkout.appendingPathComponent("docs/walk-of-an-action.md"), encoding: .utf8)
        var sections: [String: (stated: Int, files: Set<String>)] = [:]
        var section: String?
        var problems: [String] = []
        for (number, line) in page.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if let heading = line.firstMatch(of: /^## In `([a-z-]+)` \((\d+)\)/) {
                section = String(heading.output.1)
                sections[String(heading.output.1)] = (Int(heading.output.2)!, [])
                continue
            }
            if line.hasPrefix("## ") { section = nil }
            guard let name = section, line.hasPrefix("|") else { continue }
            let files = line.matches(of: /`((?:Sources|plugins)\/[^`]+)`/).map { String($0.output.1) }
            if let stated = line.firstMatch(of: /^\|[^|]*\((\d+)\)\s*\|/), Int(stated.output.1)! != files.count {
                problems.append("line \(number + 1): the row says (\(stated.output.1)) but names \(files.count) files")
            }
            sections[name]?.files.formUnion(files)
        }
        #expect(Set(sections.keys) == ["storesh", "storesh-worker"], "sections: \(sections.keys.sorted())")
        for (name, section) in sections where section.stated != section.files.count {
            problems.append("`\(name)` says (\(section.stated)) but names \(section.files.count) files")
        }
        let distinct = sections.values.reduce(into: Set<String>()) { $0.formUnion($1.files) }
        if !page.contains("**\(distinct.count) files run on each action") {
            problems.append("no \"**\(distinct.count) files run on each action\"")
        }
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    /// A source file a document names in a code span (`Sources/StoreShell/Shell/ShellCore.swift`)
    /// is there: the walk of an action and the map name files, and a file moved or split
    /// leaves them pointing at nothing unless this fails.
    @Test func everySourceFileADocumentNamesExists() throws {
        var missing: [String] = []
        var checked = 0
        for file in try markdownFiles() {
            let text = try String(contentsOf: file, encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                for match in line.matches(of: /`((?:Sources|plugins|Tests|scripts)\/[^`\s*]+\.(?:swift|c|h|md))`/) {
                    checked += 1
                    let path = String(match.output.1)
                    if !FileManager.default.fileExists(atPath: checkout.appendingPathComponent(path).path) {
                        missing.append("\(file.path.dropFirst(checkout.path.count + 1)):\(number + 1): \(path)")
                    }
                }
            }
        }
        #expect(checked >= 79, "the walk of an action alone names 79 files")
        #expect(missing.isEmpty, "documents name files that are not there:\n\(missing.joined(separator: "\n"))")
    }
}
