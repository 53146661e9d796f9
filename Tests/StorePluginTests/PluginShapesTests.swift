import Foundation
import StoreValue
import Testing

@testable import StorePlugin

/// Argument types as app models have them.
enum Courier: String, Codable, CaseIterable, Sendable {
    case ground, express
}

enum Speed: Int, Codable, CaseIterable, Sendable {
    case slow = 1, fast = 3
}

enum Mood: Codable, CaseIterable, Sendable {
    case calm, busy
}

/// A raw-value enum that is not CaseIterable: its cases cannot be listed.
enum Tone: String, Codable, Sendable {
    case low, high
}

struct Spot: Codable, Sendable, Equatable {
    var lat: Double
    var lon: Double
}

struct Destination: Codable, Sendable, Equatable {
    var street: String
    var zip: String?
    var floor: Int8?
    var spot: Spot
    var id: UUID
    var courier: Courier
}

/// An enum with payloads: not discoverable, unless it states its shape.
enum Parcel: Codable, Sendable, Equatable {
    case letter
    case box(weight: Int)
}

struct Node: Codable, Sendable {
    var name: String
    var children: [Node]
}

@PluginActions
enum DeliveryAction: Codable, Equatable, Sendable {
    /// Sends one.
    case send(sku: String, via: Courier = .ground, count: Int = 1, note: String? = nil)
    case deliver(Destination)
    case rush(Speed?)
    case tags([String: Int])
}

@Suite("PluginShapes: an argument type's shape, found at run time")
struct PluginShapesTests {
    @Test func standardTypesHaveTheirShapes() {
        #expect(PluginShapes.shape(of: Int.self) == .anyInt)
        #expect(PluginShapes.shape(of: UInt8.self) == .int(range: 0...255))
        #expect(PluginShapes.shape(of: Int16.self) == .int(range: -32768...32767))
        #expect(PluginShapes.shape(of: UInt64.self) == .int(range: 0...Int64.max))
        #expect(PluginShapes.shape(of: Float.self) == .double)
        #expect(PluginShapes.shape(of: [String?].self) == .list(.optional(.string)))
        #expect(PluginShapes.shape(of: Set<Bool>.self) == .list(.bool))
        #expect(PluginShapes.shape(of: [String: Double].self) == .dictionary(key: .string, value: .double))
        #expect(PluginShapes.shape(of: [Int: Double].self) == .any, "non-string keys are not a record")
    }

    @Test func caseIterableEnumsListTheirCasesAndRawValues() {
        #expect(
            PluginShapes.shape(of: Courier.self)
                == .choice(
                    name: "Courier",
                    cases: [
                        .init("ground", rawValue: .string("ground")), .init("express", rawValue: .string("express")),
                    ]))
        #expect(
            PluginShapes.shape(of: Speed.self)
                == .choice(name: "Speed", cases: [.init("slow", rawValue: .int(1)), .init("fast", rawValue: .int(3))]))
        #expect(PluginShapes.shape(of: Mood.self) == .choice(name: "Mood", cases: [.init("calm"), .init("busy")]))
        #expect(PluginShapes.shape(of: Tone.self) == .string, "without CaseIterable, its raw type")
    }

    @Test func structsAreProbedForTheirFieldsNestedAndOptional() throws {
        let spot = TypeShape.record(name: "Spot", fields: [.init("lat", .double), .init("lon", .double)])
        #expect(
            PluginShapes.shape(of: Destination.self)
                == .record(
                    name: "Destination",
                    fields: [
                        .init("street", .string), .init("zip", .optional(.string)),
                        .init("floor", .optional(.int(range: -128...127))), .init("spot", spot), .init("id", .uuid),
                        .init("courier", PluginShapes.shape(of: Courier.self)),
                    ]))
        #expect(PluginShapes.shape(of: [Spot].self) == .list(spot))
        #expect(
            PluginShapes.shape(of: Node.self)
                == .record(name: "Node", fields: [.init("name", .string), .init("children", .list(.any))]),
            "a type inside itself is any there")
        #expect(PluginShapes.shape(of: Parcel.self) == .any, "an enum with payloads cannot be discovered")
    }

    @Test func theMacroPassesShapesAndDefaults() throws {
        let schema = DeliveryAction.pluginActions
        let send = schema[0].params
        #expect(send.map(\.defaultValue) == [nil, #""ground""#, "1", "null"])
        #expect(send[1].shape == PluginShapes.shape(of: Courier.self))
        #expect(send[0].shape == nil, "a plain string says nothing more than its kind")
        #expect(schema[1].params[0].shape == PluginShapes.shape(of: Destination.self))
        #expect(schema[2].params[0].shape == .optional(PluginShapes.shape(of: Speed.self)))
        #expect(schema[3].params[0].shape == .dictionary(key: .string, value: .anyInt))
        #expect(
            try schema[0].make([.string("a"), .string("express"), .int(2), .null])
                == .send(sku: "a", via: .express, count: 2, note: nil))
    }
}
