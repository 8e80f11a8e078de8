/// A disposable that disposes a group of disposables together.
///
/// Adding to a composite that is already disposed disposes the newcomer at once, so nothing
/// added late can escape clean-up.
public final class CompositeDisposable: Disposable {
    private let members: Locked<[any Disposable]?>

    /// Creates a composite holding `disposables`.
    public init(_ disposables: [any Disposable] = []) {
        members = Locked(disposables)
    }

    /// Adds a disposable; disposes it immediately if this composite is already disposed.
    /// - Parameter disposable: The disposable to own.
    public func add(_ disposable: any Disposable) {
        let accepted = members.withLock { members -> Bool in
            guard members != nil else { return false }
            members!.append(disposable)
            return true
        }
        if !accepted { disposable.dispose() }
    }

    /// Adds a closure to run on disposal.
    /// - Parameter action: The clean-up to run once.
    public func add(_ action: @escaping @Sendable () -> Void) {
        add(AnyDisposable(action))
    }

    /// Removes `disposable` without disposing it.
    /// - Parameter disposable: A member previously added, compared by identity.
    public func remove(_ disposable: any Disposable) {
        members.withLock { members in
            members?.removeAll { $0 === disposable }
        }
    }

    /// Disposes every member; members added later are disposed at once.
    public func dispose() {
        let taken = members.withLock { members in
            defer { members = nil }
            return members ?? []
        }
        for disposable in taken { disposable.dispose() }
    }

    /// Whether ``dispose()`` has been called.
    public var isDisposed: Bool {
        members.withLock { $0 == nil }
    }

    /// Adds `disposable` to `composite`.
    public static func += (composite: CompositeDisposable, disposable: any Disposable) {
        composite.add(disposable)
    }
}
