import Foundation
import StoreRuntime

extension AnyPublisher where Failure == Never, Output: Sendable {
    /// An effect written as an async closure. Unlike a `Future`, the work starts only when
    /// the store subscribes, and cancelling the effect (by id, or by releasing the store)
    /// cancels its task, so a cancelled `sleep` or request stops at once.
    public static func task(
        priority: TaskPriority? = nil,
        _ operation: @escaping @Sendable () async -> Output
    ) -> AnyPublisher<Output, Never> {
        TaskEffect(priority: priority, operation: operation).eraseToAnyPublisher()
    }
}

/// A publisher that runs an async closure in a task per subscription and publishes its
/// result, then finishes.
public struct TaskEffect<Output: Sendable>: Publisher {
    /// A task effect cannot fail: its operation returns an action.
    public typealias Failure = Never

    let priority: TaskPriority?
    let operation: @Sendable () async -> Output

    /// Starts the task for `subscriber`; cancelling the subscription cancels the task.
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
        subscriber.receive(
            subscription: TaskSubscription(
                subscriber: AnySubscriber<Output, Never>(subscriber), priority: priority, operation: operation))
    }
}

private final class TaskSubscription<Output: Sendable>: Subscription, @unchecked Sendable {
    private let lock = NSLock()
    private var subscriber: AnySubscriber<Output, Never>?
    private var task: Task<Void, Never>?
    private let priority: TaskPriority?
    private let operation: @Sendable () async -> Output

    init(
        subscriber: AnySubscriber<Output, Never>, priority: TaskPriority?,
        operation: @escaping @Sendable () async -> Output
    ) {
        self.subscriber = subscriber
        self.priority = priority
        self.operation = operation
    }

    func request(_ demand: Subscribers.Demand) {
        guard demand > 0 else { return }
        lock.lock()
        guard subscriber != nil, task == nil else {
            lock.unlock()
            return
        }
        let operation = self.operation
        task = EffectScheduling.task(priority: priority) { [self] in
            let output = await operation()
            guard !Task.isCancelled else { return }
            self.deliver(output)
        }
        lock.unlock()
    }

    private func deliver(_ output: Output) {
        lock.lock()
        let subscriber = self.subscriber
        self.subscriber = nil
        lock.unlock()
        guard let subscriber else { return }
        _ = subscriber.receive(output)
        subscriber.receive(completion: .finished)
    }

    func cancel() {
        lock.lock()
        let task = self.task
        subscriber = nil
        lock.unlock()
        task?.cancel()
    }
}
