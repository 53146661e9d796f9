import StoreValue
import Testing

@Suite("Values and Codable")
struct ValueCodableTests {
    struct Profile: Codable, Equatable {
        enum Role: String, Codable { case admin, guest }
        var name: String
        var age: Int
        var score: Double
        var tags: [String]
        var role: Role
        var manager: String?
        var limits: [String: Int]
    }

    enum Action: Codable, Equatable {
        case increment
        case setCount(Int)
        case setUser(name: String, age: Int)
        case child(Action2)
        enum Action2: Codable, Equatable { case reset }
    }

    @Test func roundTripsThroughValues() throws {
        let profile = Profile(name: "bo", age: 3, score: 2.5, tags: ["a"], role: .admin, manager: nil, limits: ["x": 1])
        let value = try ValueEncoder().encode(profile)
        #expect(value["name"] == .string("bo"))
        #expect(value["role"] == .string("admin"))
        #expect(value["manager"] == .null, "a nil optional is null: nothing in a state is silently dropped")
        #expect(try ValueDecoder().decode(Profile.self, from: value) == profile)
    }

    @Test func enumCasesDecodeFromTheirSynthesizedShape() throws {
        let decoder = ValueDecoder()
        #expect(try decoder.decode(Action.self, from: .record(["increment": .record([:])])) == .increment)
        #expect(try decoder.decode(Action.self, from: .record(["setCount": .record(["_0": .int(5)])])) == .setCount(5))
        #expect(
            try decoder.decode(
                Action.self, from: .record(["setUser": .record(["name": .string("bo"), "age": .int(3)])]))
                == .setUser(name: "bo", age: 3))
        #expect(
            try decoder.decode(Action.self, from: .record(["child": .record(["_0": .record(["reset": .record([:])])])]))
                == .child(.reset))
    }

    @Test func numbersConvertOnlyWhenExact() throws {
        #expect(try ValueDecoder().decode(Double.self, from: .int(3)) == 3.0)
        #expect(try ValueDecoder().decode(Int.self, from: .double(4.0)) == 4)
        #expect(throws: DecodingError.self) { try ValueDecoder().decode(Int.self, from: .double(4.5)) }
        #expect(throws: DecodingError.self) { try ValueDecoder().decode(UInt8.self, from: .int(300)) }
        #expect(throws: EncodingError.self) { try ValueEncoder().encode(UInt64.max) }
    }
}
