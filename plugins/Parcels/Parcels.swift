// Parcels: a model whose actions take arguments of every Codable kind — a raw-value enum,
// an optional, a struct with a nested struct and optional fields, a list of structs, a
// dictionary, an enum with payloads, and a case with default arguments. storesh learns
// each argument's shape from the types (`PluginShapes`), checks and completes it, shows
// it in `:actions` and generates it in `explore` (examples/parcels.transcript).
import Foundation
import ObservableStore
import StorePlugin

struct Parcels: ModelProtocol, Codable {
    /// How a parcel travels.
    enum Shipping: String, Codable, CaseIterable, Sendable {
        case ground, express, air
    }

    /// Where a parcel goes.
    struct Address: Codable, Sendable, Equatable {
        var street: String
        var zip: String?
        var floor: Int8?
        var spot: Spot

        /// A point on the map.
        struct Spot: Codable, Sendable, Equatable {
            var lat: Double
            var lon: Double
        }
    }

    /// A line of the parcel's contents.
    struct Item: Codable, Sendable, Equatable {
        var sku: String
        var count: UInt8
    }

    /// Who hands the parcel over: an enum with payloads, so its shape is stated.
    enum Handover: Codable, Sendable, Equatable, PluginShaped {
        case pickup
        case courier(days: Int)
        case locker(code: String, floor: Int?)

        static var pluginShape: TypeShape {
            .choice(
                name: "Handover",
                cases: [
                    .init("pickup"), .init("courier", payload: [.init("days", .anyInt)]),
                    .init("locker", payload: [.init("code", .string), .init("floor", .optional(.anyInt))]),
                ])
        }
    }

    var shipped: [String] = []
    var via: Shipping?
    var note: String?
    var address: Address?
    var items: [Item] = []
    var labels: [String: Int] = [:]
    var handover: Handover?
    var messages: [String] = []
    var tracking: UUID?

    @PluginActions
    enum Action: Codable, Sendable {
        /// Ships a product.
        /// - Parameter sku: the product
        /// - Parameter via: how it travels
        case ship(sku: String, via: Parcels.Shipping = .ground)
        /// Sets or clears the note on the parcel.
        case note(String?)
        /// Sets where the parcel goes.
        case setAddress(Parcels.Address)
        /// Replaces the parcel's contents.
        case pack(items: [Parcels.Item])
        /// Sets the parcel's labels and how many of each.
        case label(tags: [String: Int])
        /// Chooses who hands the parcel over.
        case handOver(Parcels.Handover)
        /// Shows a message, with an image if given.
        case push(message: String, image: String? = nil, times: Int = 1)
        /// Follows the parcel by its tracking id.
        case track(id: UUID)
    }

    static func update(state: Parcels, action: Action, environment: Void) -> Update<Parcels> {
        var next = state
        switch action {
        case .ship(let sku, let via):
            next.shipped.append(sku)
            next.via = via
        case .note(let text): next.note = text
        case .setAddress(let address): next.address = address
        case .pack(let items): next.items = items
        case .label(let tags): next.labels = tags
        case .handOver(let handover): next.handover = handover
        case .push(let message, let image, let times):
            next.messages.append("\(message)\(image.map { " [\($0)]" } ?? "") x\(times)")
        case .track(let id): next.tracking = id
        }
        return Update(state: next)
    }
}

// The glue: the model, and the two symbols storesh looks for.
let parcelsModel = PluginModel.observable(
    "parcels", doc: "A parcel whose actions take arguments of every Codable kind.", initial: { Parcels() },
    environment: { _ in () })
@_cdecl("storeplugin_info_v1") public func pluginInfo() -> UnsafeRawPointer {
    StorePlugin.info(name: "parcels", version: "1.0.0")
}
@_cdecl("storeplugin_register_v1") public func pluginRegister(
    _ host: UnsafeRawPointer, _ error: UnsafeMutableRawPointer
) -> Int32 { StorePlugin.register(host: host, error: error, models: [parcelsModel]) }
