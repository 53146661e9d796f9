import StoreRuntime

/// Bridges from async code to the publisher world, so an effect can be written as an
/// async closure: `Future { await environment.fetch() }.eraseToAnyPublisher()`.
///
/// As upstream's: the closure need not be `@Sendable`, so it may capture the update's
/// environment (a class, a struct of closures) as app code does, in Swift 5 and Swift 6
/// mode alike. The closure runs once, in the task the future starts, which is the only
/// place that calls it: `OperationBox` carries it there unchecked (docs/decisions/0007).
/// What it captures is shared with the code that made it, as upstream's is.
///
/// Like every `Future`, the work starts when the future is created, not on subscription.
extension Future where Failure == Never {
    /// A future fulfilled with the result of `operation`, run in a new task.
    public convenience init(
        priority: TaskPriority? = nil,
        operation: @escaping () async -> Output
    ) {
        let box = OperationBox(operation)
        self.init { promise in
            let fulfil = PromiseBox(promise)
            EffectScheduling.task(priority: priority) {
                fulfil.promise(.success(await box.operation()))
            }
        }
    }

    /// A future fulfilled with the result of `operation`, run in a detached task that
    /// inherits no actor or task-local values.
    public static func detached(
        priority: TaskPriority? = nil,
        operation: @escaping () async -> Output
    ) -> Future {
        Future(priority: priority, operation: operation)
    }
}

extension Future where Failure == any Error {
    /// A future fulfilled with the value `operation` returns, or failed with the error it
    /// throws.
    public convenience init(
        priority: TaskPriority? = nil,
        operation: @escaping () async throws -> Output
    ) {
        let box = OperationBox(operation)
        self.init { promise in
            let fulfil = PromiseBox(promise)
            EffectScheduling.task(priority: priority) {
                do {
                    fulfil.promise(.success(try await box.operation()))
                } catch {
                    fulfil.promise(.failure(error))
                }
            }
        }
    }

    /// The throwing form of `detached(priority:operation:)`.
    public static func detached(
        priority: TaskPriority? = nil,
        operation: @escaping () async throws -> Output
    ) -> Future {
        Future(priority: priority, operation: operation)
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

/// Carries a future's operation, which need not be `@Sendable` (upstream's signature),
/// into the one task that calls it. Unchecked: what the closure captures is the caller's
/// to keep safe, as it is upstream, where the library is not checked at all.
private struct OperationBox<Operation>: @unchecked Sendable {
    let operation: Operation

    init(_ operation: Operation) {
        self.operation = operation
    }
}
