// `import Combine` where the system has no Combine (Linux, Windows, Android, WASI): code
// written for upstream ObservableStore begins with it. This module is OpenCombine under
// Combine's name, with its Dispatch and Foundation schedulers, so `DispatchQueue.main`
// and `RunLoop.main` are schedulers (`.delay(for: .seconds(1), scheduler:
// DispatchQueue.main)`, `.receive(on: DispatchQueue.main)`). The store libraries depend
// on it only on those platforms: on Apple platforms the real Combine is the one imported.
@_exported public import OpenCombine
@_exported public import OpenCombineDispatch
@_exported public import OpenCombineFoundation
