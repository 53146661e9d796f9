/// What the assertion closure of Arboreal's `TestStore` writes to: the model's properties
/// by key path — `$0.count = 1`, `$0.child.name = "x"`, `$0.todos[0].done = true` — as
/// they must be after the action. The writes are recorded, not made: the model itself is
/// untouched while the closure runs, and reads see the values written before them.
@MainActor
@dynamicMemberLookup
public final class Expected<Target: AnyObject> {
    /// Where this object sits, from the root model: tells writes apart (never evaluated).
    private let place: AnyKeyPath
    /// Finds the object in the model: during the closure, through what it wrote; after the
    /// action, in the model as it is then (nil when it is no longer there).
    private let find: @MainActor () -> Target?
    private let book: ExpectationBook

    init(place: AnyKeyPath, book: ExpectationBook, find: @escaping @MainActor () -> Target?) {
        self.place = place
        self.book = book
        self.find = find
    }

    /// A property's value: the one this closure last wrote, or the model's.
    @_disfavoredOverload
    public subscript<Value>(dynamicMember keyPath: ReferenceWritableKeyPath<Target, Value>) -> Value {
        get {
            if let written = book.expected(at: key(keyPath)) as? Value { return written }
            return target()[keyPath: keyPath]
        }
        set {
            let find = self.find
            book.record(
                ExpectationBook.Write(
                    expected: newValue,
                    before: target()[keyPath: keyPath],
                    read: { find()?[keyPath: keyPath] },
                    write: { value in
                        guard let target = find(), let value = value as? Value else { return false }
                        target[keyPath: keyPath] = value
                        return true
                    }
                ),
                at: key(keyPath)
            )
        }
    }

    /// A model object this one holds, for writing to its properties.
    public subscript<Child: AnyObject>(dynamicMember keyPath: ReferenceWritableKeyPath<Target, Child>) -> Expected<
        Child
    > {
        child(keyPath)
    }

    /// A model object this one holds in a constant.
    public subscript<Child: AnyObject>(dynamicMember keyPath: KeyPath<Target, Child>) -> Expected<Child> {
        child(keyPath)
    }

    /// The model objects this one holds in an array, each for writing to its properties.
    public subscript<Element: AnyObject>(dynamicMember keyPath: ReferenceWritableKeyPath<Target, [Element]>)
        -> [Expected<Element>]
    {
        elements(keyPath)
    }

    /// The model objects this one holds in a constant array.
    public subscript<Element: AnyObject>(dynamicMember keyPath: KeyPath<Target, [Element]>) -> [Expected<Element>] {
        elements(keyPath)
    }

    private func elements<Element: AnyObject>(_ keyPath: KeyPath<Target, [Element]>) -> [Expected<Element>] {
        let find = self.find
        let book = self.book
        let listKey = key(keyPath)
        let list = (book.expected(at: listKey) as? [Element]) ?? target()[keyPath: keyPath]
        return list.indices.map { index in
            Expected<Element>(place: listKey.appending(path: \[Element].[index]) ?? listKey, book: book) {
                let elements =
                    (book.recording ? book.expected(at: listKey) as? [Element] : nil) ?? find()?[keyPath: keyPath]
                guard let elements, index < elements.count else { return nil }
                return elements[index]
            }
        }
    }

    private func child<Child: AnyObject>(_ keyPath: KeyPath<Target, Child>) -> Expected<Child> {
        let find = self.find
        let book = self.book
        let childKey = key(keyPath)
        return Expected<Child>(place: childKey, book: book) {
            if book.recording, let written = book.expected(at: childKey) as? Child { return written }
            return find()?[keyPath: keyPath]
        }
    }

    private func key(_ keyPath: AnyKeyPath) -> AnyKeyPath {
        place.appending(path: keyPath) ?? keyPath
    }

    private func target() -> Target {
        guard let target = find() else {
            preconditionFailure("an object the assertion reached is not in the model")
        }
        return target
    }
}

/// The writes of one assertion closure, in the order made, with the value each property
/// had before; the test store sets them on the model to compare pictures of it.
@MainActor
final class ExpectationBook {
    struct Write {
        var expected: Any
        let before: Any
        /// The property's value in the model now; nil when its object is gone.
        let read: @MainActor () -> Any?
        /// Sets the property; false when its object is gone.
        let write: @MainActor (Any) -> Bool
    }

    /// True while the closure runs: reads then see what it wrote.
    private(set) var recording = true
    private var writes: [Write] = []
    private var index: [AnyKeyPath: Int] = [:]

    var isEmpty: Bool { writes.isEmpty }

    func expected(at key: AnyKeyPath) -> Any? {
        guard recording, let position = index[key] else { return nil }
        return writes[position].expected
    }

    /// Records a write; a second write to the same place keeps the first one's value before.
    func record(_ write: Write, at key: AnyKeyPath) {
        if let position = index[key] {
            writes[position].expected = write.expected
        } else {
            index[key] = writes.count
            writes.append(write)
        }
    }

    func stopRecording() { recording = false }

    /// A picture of `model` with every written property set to its expected (or its
    /// before) value, the model's own values put back afterwards. Nil when a written
    /// object is no longer in the model.
    func picture(of model: AnyObject, with value: KeyPath<Write, Any>) -> ModelSnapshot? {
        let actual = writes.map { $0.read() }
        guard actual.allSatisfy({ $0 != nil }) else { return nil }
        for write in writes { _ = write.write(write[keyPath: value]) }
        let picture = ModelSnapshot(of: model)
        for (write, value) in zip(writes, actual).reversed() { _ = write.write(value!) }
        return picture
    }
}
