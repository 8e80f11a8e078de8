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
/// The binding cannot loop: a value equal to the target's current value is not written back
/// (GYSignal's two-way binding broken by `different`).
/// ```swift
/// let model = MutableProperty("Ann")
/// let field = MutableProperty("")
/// let binding = bind(model, field)   // field.value == "Ann"
/// field.value = "Bob"                // model.value == "Bob"
/// ```
/// - Parameters:
///   - a: The property whose value wins at the start.
///   - b: The property that follows.
/// - Returns: A disposable that ends both directions.
@discardableResult
public func bind<Value: Equatable & Sendable>(_ a: MutableProperty<Value>, _ b: MutableProperty<Value>) -> any Disposable {
    CompositeDisposable([oneWay(from: a, to: b), oneWay(from: b, to: a)])
}

/// Copies `source`'s values into `target`, skipping values `target` already holds.
private func oneWay<Value: Equatable & Sendable>(from source: MutableProperty<Value>, to target: MutableProperty<Value>) -> any Disposable {
    let target = WeakReference(target)
    return source.signal.subscribe(onValue: { value in
        guard let target = target.object, target.value != value else { return }
        target.value = value
    })
}
