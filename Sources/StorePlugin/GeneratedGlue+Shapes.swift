import Foundation

/// The shapes of the enums `storesh-glue` writes Codable for: an enum with payloads cannot
/// be discovered at run time, so the generator states it, case by case, and asks for each
/// payload type's shape here.
extension GeneratedGlue {
    /// The shape of `type` as an action argument (`PluginShapes.shape(of:)`), or `.any` for
    /// a type whose shape is being stated on this thread already: an indirect enum, or two
    /// enums holding each other, end there instead of recursing without end.
    public static func shape(of type: Any.Type) -> TypeShape {
        let key = ObjectIdentifier(type)
        return inProgress.contains(key) ? .any : PluginShapes.shape(of: type)
    }

    /// Runs `body`, the shape of `type`, with `type` marked in progress on this thread.
    public static func stating(_ type: Any.Type, _ body: () -> TypeShape) -> TypeShape {
        let key = ObjectIdentifier(type)
        guard !inProgress.contains(key) else { return .any }
        inProgress.insert(key)
        defer { inProgress.remove(key) }
        return body()
    }

    /// The types whose shapes are being stated on the calling thread.
    private static var inProgress: Set<ObjectIdentifier> {
        get { Thread.current.threadDictionary[progressKey] as? Set<ObjectIdentifier> ?? [] }
        set { Thread.current.threadDictionary[progressKey] = newValue }
    }

    private static let progressKey = "storesh.GeneratedGlue.shapesInProgress"
}
