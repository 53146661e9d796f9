// Cart: a newcomer's shopping cart, the shapes real models have — labelled cases, a child
// behind a cursor, a keyed collection, a delayed effect calling a service — as a plugin
// in one file. Everything storesh knows about it comes from the enums and the service
// function: see the four lines of glue at the end.
import ObservableStore
import StorePlugin

/// One product in the cart.
struct Line: ModelProtocol, Codable {
    var sku: String
    var quantity: Int
    /// Cents per unit; nil until the price service answered.
    var unitPrice: Int?
    /// The most of one product a cart holds (`storesh explore` found that an `add` near
    /// `Int.max` overflowed).
    static let maximum = 10_000

    @PluginActions
    enum Action: Codable, Sendable {
        /// Sets how many of the product to buy (0 or less keeps 1; at most 10,000).
        /// - Parameter quantity: the new quantity
        case setQuantity(Int)
        /// Buys one more.
        case increment
    }

    static func update(state: Line, action: Action, environment: Void) -> Update<Line> {
        var next = state
        switch action {
        case .setQuantity(let quantity): next.quantity = min(Line.maximum, max(1, quantity))
        case .increment: next.quantity = min(Line.maximum, next.quantity + 1)
        }
        return Update(state: next)
    }
}

/// The checkout form: a child model of the cart.
struct Checkout: ModelProtocol, Codable {
    var coupon: String?
    var giftWrap = false

    @PluginActions
    enum Action: Codable, Sendable {
        /// Applies a coupon code (SAVE10 takes 10% off).
        case applyCoupon(code: String)
        /// Removes the coupon.
        case removeCoupon
        /// Wraps the order as a gift, or not.
        case setGiftWrap(Bool)
    }

    static func update(state: Checkout, action: Action, environment: Void) -> Update<Checkout> {
        var next = state
        switch action {
        case .applyCoupon(let code): next.coupon = code
        case .removeCoupon: next.coupon = nil
        case .setGiftWrap(let wrap): next.giftWrap = wrap
        }
        return Update(state: next)
    }
}

struct Cart: ModelProtocol, Codable {
    var lines: [Line] = []
    var checkout = Checkout()
    /// Products whose price is being fetched.
    var pricing: [String] = []
    var problem: String?

    /// Cents to pay: priced lines, less the coupon.
    var total: Int {
        let sum = lines.reduce(0) { $0 + $1.quantity * ($1.unitPrice ?? 0) }
        return checkout.coupon == "SAVE10" ? sum * 9 / 10 : sum
    }

    @PluginActions
    enum Action: Codable, Sendable {
        /// Adds a product (or more of one); its price is fetched after 300 ms.
        case add(sku: String, quantity: Int)
        /// Removes a product.
        case remove(sku: String)
        /// One line's actions, by product: `line["apple"].increment`.
        case line(String, Line.Action)
        /// The checkout form's actions: `checkout.applyCoupon code: "SAVE10"`.
        case checkout(Checkout.Action)
        /// A price arrived (sent by the pricing effect).
        case priced(sku: String, cents: Int)
        /// The price service failed (sent by the pricing effect).
        case pricingFailed(sku: String, reason: String)
    }

    struct Environment: Sendable {
        let clock: HostClock
        let price: @Sendable (_ sku: String) async throws -> Int
    }

    static func update(state: Cart, action: Action, environment: Environment) -> Update<Cart> {
        var next = state
        switch action {
        case .add(let sku, let quantity):
            guard !sku.trimmingCharacters(in: .whitespaces).isEmpty else {
                next.problem = "a product needs a code"
                return Update(state: next)
            }
            if let index = next.lines.firstIndex(where: { $0.sku == sku }) {
                next.lines[index].quantity = min(
                    Line.maximum, next.lines[index].quantity + min(Line.maximum, max(1, quantity)))
                return Update(state: next)
            }
            next.lines.append(Line(sku: sku, quantity: min(Line.maximum, max(1, quantity))))
            next.pricing.append(sku)
            let fetch = Fx<Action>.task {
                do {
                    try await environment.clock.sleep(for: .milliseconds(300))
                    return .priced(sku: sku, cents: try await environment.price(sku))
                } catch {
                    return .pricingFailed(sku: sku, reason: "\(error)")
                }
            }
            return Update(state: next, fx: fetch).cancellable(id: sku)
        case .remove(let sku):
            next.lines.removeAll { $0.sku == sku }
            next.pricing.removeAll { $0 == sku }
            return Update(state: next).cancelFx(id: sku)
        case .line(let sku, let action):
            return LineCursor.update(state: state, action: action, key: sku, environment: ())
        case .checkout(let action):
            return CheckoutCursor.update(state: state, action: action, environment: ())
        case .priced(let sku, let cents):
            next.pricing.removeAll { $0 == sku }
            if let index = next.lines.firstIndex(where: { $0.sku == sku }) { next.lines[index].unitPrice = cents }
        case .pricingFailed(let sku, let reason):
            next.pricing.removeAll { $0 == sku }
            next.problem = "no price for \(sku): \(reason)"
        }
        return Update(state: next)
    }
}

/// A line by its product; a product not in the cart is a no-op.
enum LineCursor: KeyedCursorProtocol {
    static func get(state: Cart, key: String) -> Line? { state.lines.first { $0.sku == key } }
    static func set(state: Cart, inner: Line, key: String) -> Cart {
        var next = state
        if let index = next.lines.firstIndex(where: { $0.sku == key }) { next.lines[index] = inner }
        return next
    }
    static func tag(action: Line.Action, key: String) -> Cart.Action { .line(key, action) }
}

enum CheckoutCursor: CursorProtocol {
    static func get(state: Cart) -> Checkout { state.checkout }
    static func set(state: Cart, inner: Checkout) -> Cart {
        var next = state
        next.checkout = inner
        return next
    }
    static func tag(_ action: Checkout.Action) -> Cart.Action { .checkout(action) }
}

/// The price of one unit of a product, in cents (0 for one the shop does not sell).
@PluginService
func price(sku: String) -> Int {
    ["apple": 50, "bread": 250, "milk": 120][sku] ?? 0
}

// The glue: the model, and the two symbols storesh looks for.
let cartModel = PluginModel.observable(
    "cart", doc: "A shopping cart with a priced, keyed list and a checkout form.", initial: { Cart() },
    services: [priceService.declaration],
    environment: { Cart.Environment(clock: $0.clock, price: $0.caller(priceService)) }
)
.identified(by: "sku")
// What `storesh explore` checks with no flags (it found that `add` took an empty code).
.invariants("lines[0].quantity > 0", "lines[0].sku != \"\"")
// And what the property language says less well, in Swift.
.invariant("each product has one line") { (cart: Cart) in Set(cart.lines.map(\.sku)).count == cart.lines.count }
.postcondition("remove takes the product out") { (_: Cart, action: Cart.Action, new: Cart) in
    guard case .remove(let sku) = action else { return true }
    return !new.lines.contains { $0.sku == sku } && !new.pricing.contains(sku)
}
@_cdecl("storeplugin_info_v1") public func pluginInfo() -> UnsafeRawPointer {
    StorePlugin.info(name: "cart", version: "1.0.0")
}
@_cdecl("storeplugin_register_v1") public func pluginRegister(
    _ host: UnsafeRawPointer, _ error: UnsafeMutableRawPointer
) -> Int32 { StorePlugin.register(host: host, error: error, models: [cartModel]) }
