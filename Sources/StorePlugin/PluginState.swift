/// Makes a model's state struct write its own snapshots: a `WireStateWritable` conformance
/// that writes each stored property as the struct's synthesized `Encodable` conformance
/// encodes it, without an `Encoder`. storesh reads a small state whole after every action
/// it shows; written this way, a counter's read costs a fraction of what `Encodable` costs.
///
/// ```swift
/// @PluginState
/// struct Counter: ModelProtocol, Codable {
///     var count = 0
/// }
/// ```
///
/// The state must keep synthesized encoding: a `CodingKeys` enum, an `encode(to:)` or a
/// property wrapper in the struct is a compile error (take `@PluginState` off then). One in
/// an extension, which the macro cannot see, is found at the first snapshot: storesh warns
/// and snapshots that store through `Encodable`.
@attached(extension, conformances: WireStateWritable, names: named(writeWireState))
public macro PluginState() = #externalMacro(module: "StorePluginMacros", type: "PluginStateMacro")
