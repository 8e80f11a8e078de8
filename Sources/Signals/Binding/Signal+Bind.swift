extension Signal where Failure == Never {
    /// Writes every value of this signal into `property`.
    ///
    /// The property is held weakly: the binding ends when it is released.
    /// ```swift
    /// order.signal(for: \.status).bind(to: statusLabel.text)
    /// ```
    /// - Parameter property: The property to keep up to date.
    /// - Returns: A disposable that ends the binding.
    @discardableResult
    public func bind(to property: MutableProperty<Value>) -> any Disposable {
        let target = WeakReference(property)
        return subscribe(onValue: { value in target.object?.value = value })
    }
}

/// Binds two properties both ways: each takes the other's changes, starting with `a`'s value.
///
/// The binding cannot loop, even when both sides are written from different threads at once:
/// both directions run through one serialized subscription, and each step copies the *current*
/// value of the side that changed, writing only if the other side differs (GYSignal's two-way
/// binding broken by `different`). After the last outside write, the first step makes the two
/// equal and every later step finds nothing to do.
/// ```swift
/// let model = MutableProperty("Ann")
/// let field = MutableProperty("")
/// let binding = bind(model, field)   // field.value == "Ann"
/// field.value = "Bob"                // model.value == "Bob"
/// ```
/// Both properties are held weakly.
/// - Parameters:
///   - a: The property whose value wins at the start.
///   - b: The property that follows.
/// - Returns: A disposable that ends both directions.
@discardableResult
public func bind<Value: Equatable & Sendable>(_ a: MutableProperty<Value>, _ b: MutableProperty<Value>) -> any Disposable {
    let weakA = WeakReference(a)
    let weakB = WeakReference(b)
    let changedA = a.signal.map { _ in true }
    let changedB = b.signal.map { _ in false }
    return Signal.merge(changedA, changedB).subscribe(onValue: { fromA in
        guard let a = weakA.object, let b = weakB.object else { return }
        let (source, target) = fromA ? (a, b) : (b, a)
        let value = source.value
        if target.value != value { target.value = value }
    })
}
