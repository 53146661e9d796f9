import Foundation

/// A type that states its own shape as an action argument: what the host checks, completes,
/// shows and generates for it. Conform an enum with payloads (which cannot be discovered at
/// run time) or any type whose Codable form is not the synthesized one; the glue generator
/// writes these conformances.
///
/// ```swift
/// extension Delivery: PluginShaped {
///     static var pluginShape: TypeShape {
///         .choice(name: "Delivery", cases: [.init("pickup"), .init("courier", payload: [.init("days", .anyInt)])])
///     }
/// }
/// ```
public protocol PluginShaped {
    /// The type's shape, in the form its Codable conformance reads.
    static var pluginShape: TypeShape { get }
}

/// Finds the shape of an argument type at run time.
public enum PluginShapes {
    /// The shape of `type`: its `PluginShaped` shape; the standard scalars (integers with
    /// their ranges, floating point, `Bool`, `String`, `UUID` (its own shape), `URL` as text, `Date` as a
    /// number); `Optional`, `Array`, `Set`, `Dictionary` (string keys) of known shapes;
    /// `CaseIterable` enums with their cases (and raw values); and other `Decodable`
    /// types by watching what their `init(from:)` asks for (a synthesized struct's fields).
    /// `.any` for what none of these tells (an enum with payloads that is not
    /// `PluginShaped`, a type that decodes by hand in ways the probe cannot answer).
    public static func shape(of type: Any.Type) -> TypeShape {
        ShapeDiscovery().shape(of: type)
    }
}

/// Standard containers, seen through an `Any.Type`.
protocol OptionalShapeMarker { static var wrappedType: Any.Type { get } }
protocol ListShapeMarker { static var elementType: Any.Type { get } }
protocol DictionaryShapeMarker {
    static var keyType: Any.Type { get }
    static var valueType: Any.Type { get }
}

extension Optional: OptionalShapeMarker { static var wrappedType: Any.Type { Wrapped.self } }
extension Array: ListShapeMarker { static var elementType: Any.Type { Element.self } }
extension Set: ListShapeMarker { static var elementType: Any.Type { Element.self } }
extension Dictionary: DictionaryShapeMarker {
    static var keyType: Any.Type { Key.self }
    static var valueType: Any.Type { Value.self }
}

/// One discovery: remembers the types it probed (each once) and those being probed (a
/// type that contains itself is `.any` inside itself).
final class ShapeDiscovery {
    private var known: [ObjectIdentifier: TypeShape] = [:]
    private var probing: Set<ObjectIdentifier> = []

    func shape(of type: Any.Type) -> TypeShape {
        if let shaped = type as? any PluginShaped.Type { return shaped.pluginShape }
        if let scalar = Self.scalar(type) { return scalar }
        if let optional = type as? any OptionalShapeMarker.Type { return .optional(shape(of: optional.wrappedType)) }
        if let list = type as? any ListShapeMarker.Type { return .list(shape(of: list.elementType)) }
        if let dictionary = type as? any DictionaryShapeMarker.Type {
            guard dictionary.keyType == String.self else { return .any }
            return .dictionary(key: .string, value: shape(of: dictionary.valueType))
        }
        if let enumeration = type as? any CaseIterable.Type, let choice = Self.choice(enumeration) { return choice }
        if let decodable = type as? any Decodable.Type { return probe(decodable) }
        return .any
    }

    private static func scalar(_ type: Any.Type) -> TypeShape? {
        if type == Bool.self { return .bool }
        if type == UUID.self { return .uuid }
        if type == String.self || type == URL.self { return .string }
        if type == Date.self { return .double }
        if let integer = type as? any FixedWidthInteger.Type { return .int(range: range(of: integer)) }
        if type is any BinaryFloatingPoint.Type { return .double }
        return nil
    }

    /// The range of an integer type narrower than `Int64` (a 64-bit unsigned one: what an
    /// `Int64` holds of it); nil for `Int` and `Int64`.
    private static func range<I: FixedWidthInteger>(of type: I.Type) -> ClosedRange<Int64>? {
        if I.isSigned, I.bitWidth >= 64 { return nil }
        return Int64(clamping: I.min)...Int64(clamping: I.max)
    }

    /// A `CaseIterable` enum's cases, with raw values when it is `RawRepresentable` by
    /// text or a number; nil when a case's name cannot be read.
    private static func choice<C: CaseIterable>(_ type: C.Type) -> TypeShape? {
        var cases: [TypeShape.Case] = []
        for value in C.allCases {
            let raw = (value as? any RawRepresentable).flatMap { rawValue(of: $0) }
            guard let name = caseName(of: value) else { return nil }
            cases.append(TypeShape.Case(name, rawValue: raw))
        }
        guard cases.allSatisfy({ $0.rawValue != nil }) || cases.allSatisfy({ $0.rawValue == nil }) else { return nil }
        return .choice(name: String(describing: type), cases: cases)
    }

    private static func caseName(of value: Any) -> String? {
        if let encodable = value as? any Encodable, let encoded = try? ValueEncoder().encode(encodable),
            case .record(_, let fields) = encoded, fields.count == 1, let label = fields[0].label
        {
            return label  // Codable's form of a plain case: {name: {}}
        }
        let reflected = String(reflecting: value)
        guard let name = reflected.split(separator: ".").last, Value.isBareLabel(String(name)) else { return nil }
        return String(name)
    }

    private static func rawValue<R: RawRepresentable>(of value: R) -> Value? {
        switch value.rawValue {
        case let text as String: .string(text)
        case let number as any BinaryInteger: Int64(exactly: number).map(Value.int)
        case let number as Double: .double(number)
        case let number as Float: .double(Double(number))
        default: nil
        }
    }

    /// Decodes `type` from a decoder that answers every request with a stand-in and
    /// records what was asked: a keyed container's keys and their types become a record.
    private func probe(_ type: any Decodable.Type) -> TypeShape {
        let id = ObjectIdentifier(type)
        if let shape = known[id] { return shape }
        guard probing.insert(id).inserted else { return .any }
        defer { probing.remove(id) }
        let recording = ProbeRecording(discovery: self)
        let shape: TypeShape
        do {
            _ = try type.init(from: ProbeDecoder(recording: recording))
            shape = recording.shape(named: String(describing: type))
        } catch {
            // A single value's type is still known when only the value was refused (a
            // raw-value enum that is not CaseIterable refuses the stand-in).
            shape = recording.singleValue ?? .any
        }
        known[id] = shape
        return shape
    }

    /// A value of `type` for the probe to hand back: decoded from an example of its shape.
    func standIn<T: Decodable>(for type: T.Type) throws -> T {
        if type == UUID.self, let zero = UUID(uuidString: "00000000-0000-0000-0000-000000000000") { return zero as! T }
        if type == URL.self, let url = URL(string: "about:blank") { return url as! T }
        if type == Date.self { return Date(timeIntervalSinceReferenceDate: 0) as! T }
        let shape = shape(of: type)
        guard shape != .any else { throw ProbeError.unknown }
        return try ValueDecoder().decode(type, from: shape.example)
    }
}

enum ProbeError: Error {
    case unknown
}
