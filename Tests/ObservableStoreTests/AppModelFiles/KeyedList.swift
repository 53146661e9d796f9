// An app's list model file: rows held by key, each a child model behind a keyed cursor
// written in upstream's argument order.
import Combine
import Foundation
import ObservableStore
import SwiftUI
import os

struct RowModel: ModelProtocol {
    var id: String
    var title: String
    var height: CGFloat = 44

    enum Action: Equatable {
        case rename(String)
        case grow(CGFloat)
    }

    static func update(state: RowModel, action: Action, environment: Void) -> Update<RowModel> {
        var model = state
        switch action {
        case .rename(let title): model.title = title
        case .grow(let points): model.height += points
        }
        return Update(state: model).animation(.easeInOut(duration: 0.3))
    }
}

enum ListAction: Equatable {
    case row(id: String, action: RowModel.Action)
    case add(id: String, title: String)
}

struct ListModel: ModelProtocol {
    var rows: [String: RowModel] = [:]

    static func update(state: ListModel, action: ListAction, environment: Void) -> Update<ListModel> {
        switch action {
        case .row(let id, let action):
            return RowCursor.update(state: state, action: action, environment: (), key: id)
        case .add(let id, let title):
            var model = state
            model.rows[id] = RowModel(id: id, title: title)
            return Update(state: model, animation: .default)
        }
    }
}

struct RowCursor: KeyedCursorProtocol {
    static func get(state: ListModel, key: String) -> RowModel? {
        state.rows[key]
    }

    static func set(state: ListModel, inner: RowModel, key: String) -> ListModel {
        var model = state
        model.rows[key] = inner
        return model
    }

    static func tag(action: RowModel.Action, key: String) -> ListAction {
        .row(id: key, action: action)
    }
}

/// A view's binding as apps make one (a view is main-actor code): the store's
/// `binding(get:tag:)`.
@MainActor
func titleBinding(_ store: Store<ListModel>, id: String) -> Binding<String> {
    store.binding(
        get: { $0.rows[id]?.title ?? "" },
        tag: { ListAction.row(id: id, action: .rename($0)) })
}
