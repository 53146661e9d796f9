import StoreValue
import Testing

/// The shape of an action argument: its text form (what `sp_param.shape` and the worker
/// protocol carry) and how an argument is checked against it.
@Suite("argument shapes: text form and checks")
struct TypeShapeTests {
    static let shipping = TypeShape.choice(
        name: "Shipping",
        cases: [.init("ground", rawValue: .string("ground")), .init("air", rawValue: .string("air"))])
    static let address = TypeShape.record(
        name: "Address",
        fields: [
            .init("street", .string), .init("zip", .optional(.string)),
            .init("floor", .optional(.int(range: -128...127))),
            .init("spot", .record(name: "Spot", fields: [.init("lat", .double), .init("lon", .double)])),
        ])
    static let handover = TypeShape.choice(
        name: "Handover",
        cases: [
            .init("pickup"), .init("courier", payload: [.init("days", .anyInt)]),
            .init("box", payload: [.init(nil, .string)]),
        ])

    @Test func everyShapeReadsBackAsItself() throws {
        let shapes: [TypeShape] = [
            .anyInt, .int(range: 0...255), .double, .bool, .string, .uuid, .any, .optional(.list(.string)),
            .dictionary(key: .string, value: .anyInt), .dictionary(key: .anyInt, value: .any), Self.shipping,
            Self.address, Self.handover, .record(name: nil, fields: []), .choice(name: nil, cases: []),
            .choice(name: "Level", cases: [.init("low", rawValue: .int(1)), .init("high", rawValue: .double(2.5))]),
        ]
        for shape in shapes {
            #expect(try TypeShape.parse(shape.text) == shape, "\(shape.text)")
        }
        #expect(
            Self.shipping.text
                == #"{choice: "Shipping", cases: [{case: "ground", raw: "ground"}, {case: "air", raw: "air"}]}"#)
    }

    @Test func aMalformedShapeSaysWhatAndWhere() {
        func problem(_ text: String) -> String? {
            do {
                _ = try TypeShape.parse(text)
                return nil
            } catch {
                return error.message
            }
        }
        #expect(
            problem(#""integer""#)
                == #""integer" is not a shape; expected "int", "double", "bool", "string", "uuid" or "any""#)
        #expect(problem("{list: ") == "expected a value")
        #expect(problem("3") == #"expected a shape ("int", {list: …}, {record: …}, …), not int 3"#)
        #expect(
            problem(#"{record: "A", fields: [["a", "int"], ["a", "bool"]]}"#) == "field 'a' appears twice")
        #expect(
            problem(#"{choice: null, cases: [{case: "x"}, {case: "y", raw: 2}]}"#)
                == "cases: either every case has a raw value or none has")
        #expect(
            problem(#"{list: {optional: "str"}}"#)
                == #"list.optional: "str" is not a shape; expected "int", "double", "bool", "string", "uuid" or "any""#)
        #expect(problem("{int: [5, 1]}") == "int: the range 5...1 is empty")
        #expect(problem(#"{fields: [], record: "A"}"#)?.contains("the kind comes first") == true)
        #expect(
            problem(#"{choice: "C", cases: [{case: "a", raw: [1]}]}"#)
                == "cases[0].raw: a raw value is text or a number, not [1]")
    }

    @Test func anArgumentIsCheckedAndPutInTheFormThePluginDecodes() throws {
        #expect(try Self.shipping.conform(.string("air")) == .string("air"))
        #expect(throws: ShapeMismatch(path: "", message: #""bogus" is not one of "ground", "air""#)) {
            try Self.shipping.conform(.string("bogus"))
        }
        #expect(try TypeShape.optional(.string).conform(.null) == .null)
        #expect(try TypeShape.list(.double).conform(.array([.int(1)])) == .array([.double(1)]))
        #expect(throws: ShapeMismatch(path: "", message: "300 is out of range: it must be in 0...255")) {
            try TypeShape.int(range: 0...255).conform(.int(300))
        }
        let address = Value.record([
            "street": .string("Main"), "spot": .record(["lat": .int(1), "lon": .double(2)]),
        ])
        #expect(
            try Self.address.conform(address)
                == .record(["street": .string("Main"), "spot": .record(["lat": .double(1), "lon": .double(2)])]))
        #expect(throws: ShapeMismatch(path: "", message: "Address needs 'spot' (Spot)")) {
            try Self.address.conform(.record(["street": .string("Main")]))
        }
        let misfit = #expect(throws: ShapeMismatch.self) {
            try Self.address.conform(
                .record(["street": .string("M"), "spot": .record(["lat": .string("n"), "lon": .int(0)])]))
        }
        #expect(misfit?.path == ".spot.lat")
        #expect(misfit?.steps == [.field("spot"), .field("lat")])
        #expect(misfit?.message == #"expected double, not string "n""#)
        #expect(
            throws: ShapeMismatch(
                path: "", message: "Address has no field 'city'; its fields: street, zip, floor, spot")
        ) {
            try Self.address.conform(.record(["city": .string("x")]))
        }
        #expect(try Self.handover.conform(.string("pickup")) == .record(["pickup": .record([:])]))
        #expect(
            try Self.handover.conform(.record(["courier": .record(["days": .int(2)])]))
                == .record(["courier": .record(["days": .int(2)])]))
        #expect(throws: ShapeMismatch(path: "", message: #"case 'courier' needs its payload: {courier: {days: int}}"#))
        {
            try Self.handover.conform(.string("courier"))
        }
        #expect(
            try TypeShape.dictionary(key: .string, value: .anyInt).conform(.record(["a": .int(1)]))
                == .record(["a": .int(1)]))
    }

    @Test func signaturesAndExamplesShowTheShape() {
        #expect(Self.shipping.summary == "Shipping")
        #expect(Self.shipping.body == #""ground" | "air""#)
        #expect(TypeShape.optional(.list(Self.address)).summary == "[Address]?")
        #expect(TypeShape.dictionary(key: .string, value: .anyInt).summary == "[string: int]")
        #expect(TypeShape.optional(.list(Self.address)).namedParts.map(\.summary) == ["Address", "Spot"])
        #expect(Self.handover.body == #""pickup" | {courier: {days: int}} | {box: {_0: string}}"#)
        #expect(
            Self.address.example
                == .record([
                    "street": .string(""), "zip": .null, "floor": .null,
                    "spot": .record(["lat": .double(0), "lon": .double(0)]),
                ]))
    }

    /// Issue 47: a `UUID` argument was a plain string, so explore sent text the plugin's
    /// decoder refused. It is a shape of its own: checked here, with what a UUID looks like.
    @Test func aUUIDIsCheckedAsOne() throws {
        #expect(TypeShape.uuid.text == #""uuid""#)
        #expect(TypeShape.uuid.summary == "uuid")
        #expect(TypeShape.uuid.fits(kind: "string") && TypeShape.uuid.fits(kind: "value"))
        #expect(!TypeShape.uuid.fits(kind: "int"))
        for good in ["E621E1F8-C36C-495A-93FC-0C247A3E6E5F", "e621e1f8-c36c-495a-93fc-0c247a3e6e5f"] {
            #expect(try TypeShape.uuid.conform(.string(good)) == .string(good))
        }
        for bad in [
            "", "E621E1F8C36C495A93FC0C247A3E6E5F", "G621E1F8-C36C-495A-93FC-0C247A3E6E5F",
            "E621E1F8-C36C-495A-93FC-0C247A3E6E5F0", "E621E1F8-C36C-495A-93FC_0C247A3E6E5F",
        ] {
            #expect(throws: ShapeMismatch.self) { try TypeShape.uuid.conform(.string(bad)) }
        }
        let wrongKind = #expect(throws: ShapeMismatch.self) { try TypeShape.optional(.uuid).conform(.int(3)) }
        #expect(wrongKind?.message == "expected uuid, not int 3")
        #expect(TypeShape.uuid.example == .string("00000000-0000-0000-0000-000000000000"))
    }

    /// A mistake inside an argument is found in its text, so the error points at it.
    @Test func aPlaceInsideALiteralIsFoundFromItsSteps() throws {
        func column(_ text: String, _ steps: [ShapePath.Step]) -> Int? {
            LiteralScanner.offset(of: steps, inLiteralAt: 0, of: Array(text.utf8))
        }
        #expect(column(#"[{sku: "a", count: 300}]"#, [.index(0), .field("count")]) == 19)
        #expect(column(#"[1, [2, 3], {"x y": [4]}]"#, [.index(2), .field("x y"), .index(0)]) == 21)
        #expect(column(#"{a: {b: 1}, c: 2}"#, [.field("c")]) == 15)
        #expect(column(#"{a: 1}"#, [.field("b")]) == nil, "a field the text does not have")
        #expect(column(#"[1]"#, [.index(3)]) == nil)
        #expect(column(#""pickup""#, [.field("pickup")]) == nil, "a case typed by its name")
        #expect(column(#"[1, "#, [.index(1)]) == nil, "a literal with a mistake")
        let mismatch = #expect(throws: ShapeMismatch.self) {
            try Self.address.conform(
                Literal.parse(Array(#"{street: "Main", spot: {lat: 1, lon: "x"}}"#.utf8)))
        }
        #expect(mismatch?.steps == [.field("spot"), .field("lon")])
        #expect(mismatch?.path == ".spot.lon")
    }
}
