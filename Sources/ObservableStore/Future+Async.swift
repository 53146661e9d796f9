import StoreRuntime

/// Bridges from async code to the publisher world, so an effect can be written as an
/// async closure: `Future { await client.fetch() }.eraseToAnyPublisher()`.
///
/// Like every `Future`, the work starts when the future is created, not on subscription.
extension Future where Failure == Never, Output: Sendable {
    /// A future fulfilled with the result of `operation`, run in a new task.
    public convenience init(
        priority: TaskPriority? = nil,
        operation: @escaping @Sendable () async -> Output
    ) {
        self.init { promise in
            let fulfil = PromiseBox(promise)
            EffectScheduling.task(priority: priority) {
                fulfil.promise(.success(await operation()))
            }
        }
    }

    /// A future fulfilled with the result of `operation`, run in a detached task that
    /// inherits no actor or task-local values.
    public static func detached(
        priority: TaskPriority? = nil,
        operation: @escaping @Sendable () async -> Output
    ) -> Future {
        Future { promise in
            let fulfil = PromiseBox(promise)
            EffectScheduling.task(priority: priority) {
                fulfil.promise(.success(await operation()))
            }
        }
    }
}

extension Future where Failure == any Error, Output: Sendable {
    /// A future fulfilled with the value `operation` returns, or failed with the error it
    /// throws.
    public convenience init(
        priority: TaskPriority? = nil,
        operation: @escaping @Sendable () async throws -> Output
    ) {
        self.init { promise in
            let fulfil = PromiseBox(promise)
            EffectScheduling.task(priority: priority) {
                do {
                    fulfil.promise(.success(try await operation()))
                } catch {
                    fulfil.promise(.failure(error))
                }
            }
        }
    }

    /// The throwing form of `detached(priority:operation:)`.
    public static func detached(
        priority: TaskPriority? = nil,
        operation: @escaping @Sendable () async throws -> Output
    ) -> Future {
        Future { promise in
            let fulfil = PromiseBox(promise)
            EffectScheduling.task(priority: priority) {
                do {
                    fulfil.promise(.success(try await operation()))
                } catch {
                    fulfil.promise(.failure(error))
                }
            }
        }
    }
}

/// Lets a promise travel into a task. Futures guard their own state, so fulfilling one
/// from another thread is safe.
private struct PromiseBox<Output, Failure: Error>: @unchecked Sendable {
    let promise: (Result<Output, Failure>) -> Void

    init(_ promise: @escaping (Result<Output, Failure>) -> Void) {
        self.promise = promise
    }
}
