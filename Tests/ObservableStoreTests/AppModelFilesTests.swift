import Combine
import Foundation
import ObservableStore
import SwiftUI
import Testing
import os

/// The app model files in AppModelFiles/ compile unchanged on Linux: `import SwiftUI` and
/// `import os` are this package's stand-ins there, and `Binding`, `Animation` and
/// `Transaction` are one type each, whether they are reached through SwiftUI or through
/// ObservableStore (this file imports both and names them unqualified).
@MainActor
@Suite("App model files, unchanged")
struct AppModelFilesTests {
    @Test func aToastStackAnimatesWithTheCurvesItsFileNames() async {
        let store = Store(state: ToastStackModel(), environment: ToastStackEnvironment())
        store.send(.push(message: "Saved"))
        #expect(store.state.toasts.map(\.message) == ["Saved"])
        #expect(store.state.offset == 8)
        let pushed = ToastStackModel.update(
            state: ToastStackModel(), action: .push(message: "Hi"), environment: ToastStackEnvironment())
        #expect(pushed.transaction?.animation == .spring(response: 0.4, dampingFraction: 0.7, blendDuration: 0.1))
        #expect(pushed.transaction?.animation?.description == "spring(response 0.4s, damping 0.7, blend 0.1s)")
        let dismissed = ToastStackModel.update(
            state: pushed.state, action: .dismiss(pushed.state.toasts[0].id), environment: ToastStackEnvironment())
        #expect(dismissed.state.toasts.isEmpty)
        #expect(dismissed.transaction?.animation == .timingCurve(0.2, 0.8, 0.2, 1, duration: 0.25))
        await eventually { store.state.toasts.isEmpty }
        #expect(store.state.toasts.isEmpty, "the toast expired after its lifetime on the main queue")
    }

    @Test func aHelperGenericOverUpdateProtocolMergesItsEffect() async {
        let store = Store(
            create: { environment in
                ToastStackModel.update(state: ToastStackModel(), action: .push(message: "a"), environment: environment)
                    .clearing(after: .milliseconds(5))
            },
            environment: ToastStackEnvironment(lifetime: .seconds(60)))
        #expect(store.state.toasts.count == 1)
        await eventually { store.state.toasts.isEmpty }
        #expect(store.state.toasts.isEmpty, "the helper's merged effect cleared the stack")
    }

    @Test func aSearchDebouncesAndMergesSuggestionsFromAFutureCapturingItsClient() async {
        let environment = SearchEnvironment()
        let store = Store(state: SearchModel(), environment: environment)
        store.send(.setQuery("s"))
        store.send(.setQuery("swi"))
        await eventually { !store.state.suggestions.isEmpty }
        #expect(store.state.suggestions == ["swi ideas", "swi notes", "swift", "swiftui"])
        #expect(environment.client.calls == 1, "the first query was debounced away")
        store.send(.cancel)
        #expect(store.state == SearchModel())
    }

    @Test func aKeyedCursorInUpstreamsOrderUpdatesTheRowByKey() {
        let store = Store(state: ListModel(), environment: ())
        store.send(.add(id: "a", title: "Groceries"))
        let title = titleBinding(store, id: "a")
        title.wrappedValue = "Errands"
        #expect(store.state.rows["a"]?.title == "Errands")
        store.send(.row(id: "a", action: .grow(6)))
        #expect(store.state.rows["a"]?.height == 50)
        let missing: Update<ListModel>? = RowCursor.update(
            state: store.state, action: .grow(1), environment: (), key: "zz")
        #expect(missing == nil, "upstream's optional form: no row, no update")
        let unchanged: Update<ListModel> = RowCursor.update(
            state: store.state, action: .grow(1), environment: (), key: "zz")
        #expect(unchanged.state == store.state)
    }

    @Test func bindingAnimationAndTransactionAreOneTypeEachThroughEitherImport() {
        let store = Store(state: ListModel(), environment: ())
        let fromSwiftUI: SwiftUI.Binding<Int> = .constant(3)
        let fromStore: ObservableStore.Binding<Int> = fromSwiftUI
        #expect(fromStore.wrappedValue == 3)
        let animation: Animation = .easeIn(duration: 0.1).speed(2).repeatCount(3, autoreverses: false)
        let transaction = Transaction(animation: animation)
        let update = Update(state: store.state).animation(transaction.animation)
        #expect(update.transaction == transaction)
        #expect(animation.description == "easeIn(0.1s) speed 2.0 ×3")
        #expect(withAnimation(.bouncy) { 42 } == 42)
    }
}
