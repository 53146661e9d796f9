import Foundation

/// libFuzzer calls this once per input; the target comes from $STORESH_FUZZ_TARGET.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
    selectedTarget.run(Data(bytes: bytes, count: count))
    return 0
}

let selectedTarget: FuzzTarget = {
    let name = ProcessInfo.processInfo.environment["STORESH_FUZZ_TARGET"] ?? ""
    guard let target = FuzzTarget(rawValue: name) else {
        FileHandle.standardError.write(
            Data(
                "storesh-fuzz: set STORESH_FUZZ_TARGET to one of: \(FuzzTarget.allCases.map(\.rawValue).joined(separator: ", "))\n"
                    .utf8))
        exit(2)
    }
    return target
}()

#if FUZZING
    /// libFuzzer's driver (from `-sanitize=fuzzer`): it parses libFuzzer's flags and calls
    /// the callback for each input.
    @_silgen_name("LLVMFuzzerRunDriver")
    func runFuzzerDriver(
        _ argc: UnsafeMutablePointer<Int32>,
        _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
        _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> Int32
    ) -> Int32

    /// The program's entry (SwiftPM names an executable's main `<module>_main`): hands over
    /// to libFuzzer.
    @_cdecl("storesh_fuzz_main")
    func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
        var count = argc
        var arguments = argv
        return runFuzzerDriver(&count, &arguments) { bytes, size in fuzzOneInput(bytes, size) }
    }
#else
    /// Without the fuzzer (a plain build): `storesh-fuzz TARGET FILE...` runs each file
    /// through a target, so a corpus or a crash libFuzzer saved can be replayed anywhere.
    @main
    struct ReplayCorpus {
        static func main() {
            let arguments = CommandLine.arguments.dropFirst()
            guard let name = arguments.first, let target = FuzzTarget(rawValue: name) else {
                print(
                    "usage: storesh-fuzz TARGET FILE|DIR... (targets: \(FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")))"
                )
                exit(2)
            }
            var count = 0
            for path in arguments.dropFirst() {
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { continue }
                let files =
                    isDirectory.boolValue
                    ? ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted().map {
                        path + "/" + $0
                    }
                    : [path]
                for file in files {
                    guard let data = FileManager.default.contents(atPath: file) else { continue }
                    target.run(data)
                    count += 1
                }
            }
            print("\(name): \(count) inputs, no crash")
        }
    }
#endif
