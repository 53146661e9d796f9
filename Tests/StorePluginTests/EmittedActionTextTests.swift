import Testing

@testable import StorePlugin

/// Actions as an effect emits them: the SDK writes each in the shell's syntax, from its
/// Codable shape, so that a journal can replay it.
enum EmittedTodo: Codable {
    case toggle
    case rename(String)
}

enum EmittedCounter: Codable {
    case increment
    case setCount(Int)
    case setUser(name: String, age: Int)
    case mixed(Int, label: String)
}

indirect enum EmittedApp: Codable {
    case child(EmittedCounter)
    case nested(EmittedApp)
    case todos(String, EmittedTodo)
    case cells(Int, EmittedTodo)
    case byList([Int], EmittedTodo)
    case labelledChild(of: EmittedCounter)
    case wrapped(Int)
    case pair(Int, Int)
}

/// Not Codable: written as Swift describes it.
enum OpaqueAction {
    case poke
}

@Suite("Emitted actions are written as the shell reads them")
struct EmittedActionTextTests {
    @Test func casesPayloadsAndLabels() {
        #expect(ActionText.render(EmittedCounter.increment) == "increment")
        #expect(ActionText.render(EmittedCounter.setCount(5)) == "setCount 5")
        #expect(ActionText.render(EmittedCounter.setUser(name: "bo", age: 3)) == #"setUser name: "bo", age: 3"#)
        #expect(ActionText.render(EmittedCounter.mixed(1, label: "a\"b")) == #"mixed 1, label: "a\"b""#)
        #expect(ActionText.render(EmittedApp.pair(1, 2)) == "pair 1, 2")
    }

    @Test func taggedAndKeyedChildren() {
        #expect(ActionText.render(EmittedApp.child(.increment)) == "child.increment")
        #expect(ActionText.render(EmittedApp.child(.setCount(-2))) == "child.setCount -2")
        #expect(
            ActionText.render(EmittedApp.nested(.child(.setUser(name: "x", age: 1))))
                == #"nested.child.setUser name: "x", age: 1"#)
        #expect(ActionText.render(EmittedApp.todos("t1", .toggle)) == #"todos["t1"].toggle"#)
        #expect(ActionText.render(EmittedApp.todos("t1", .rename("milk"))) == #"todos["t1"].rename "milk""#)
        #expect(ActionText.render(EmittedApp.cells(3, .toggle)) == "cells[3].toggle")
        #expect(ActionText.render(EmittedApp.nested(.todos("a", .toggle))) == #"nested.todos["a"].toggle"#)
    }

    @Test func payloadsThatAreNoChildAreArguments() {
        #expect(ActionText.render(EmittedApp.wrapped(7)) == "wrapped 7")
        #expect(ActionText.render(EmittedApp.byList([1, 2], .toggle)) == "byList [1, 2], {toggle: {}}")
        #expect(ActionText.render(EmittedApp.labelledChild(of: .increment)) == "labelledChild of: {increment: {}}")
        #expect(ActionText.render(OpaqueAction.poke) == "poke")
    }
}
