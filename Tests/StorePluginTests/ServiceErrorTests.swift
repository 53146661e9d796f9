import Foundation
import Testing

@testable import StorePlugin

/// A failing service's message reaches the model: a model that shows
/// `error.localizedDescription` showed "(StorePlugin.ServiceError error 1.)".
@Suite("ServiceError's message")
struct ServiceErrorTests {
    @Test func localizedDescriptionIsTheStubsMessage() {
        let error: any Error = ServiceError(service: "price", message: "catalog offline")
        #expect(error.localizedDescription == "catalog offline")
        #expect("\(error)" == "catalog offline")
    }
}
