#if SIGNALSTORE_INSPECTOR
import Foundation
import SignalStore

/// What every page of a running inspector shares: the store it shows, the secret token, and
/// whether it may write.
struct Inspector: Sendable {
    /// The database, opened read-only unless ``allowsWrites``.
    let store: Store
    /// The random secret of the URL printed at start; a request without it is refused.
    let token: String
    /// Whether history offers revert (`--allow-writes`).
    let allowsWrites: Bool
    /// The file the store opened, to notice it being deleted or replaced.
    let file: DatabaseFileIdentity?
    /// The one reader of new commits that every live page follows.
    let live: LiveFeed
    /// The live pages as last rendered, shared by their viewers until the next commit.
    let pages = LivePageCache()

    init(store: Store, token: String, allowsWrites: Bool) {
        self.store = store
        self.token = token
        self.allowsWrites = allowsWrites
        file = DatabaseFileIdentity(path: store.path)
        live = LiveFeed(store: store, writes: allowsWrites, file: file)
    }

    /// Why the page no longer shows the database at the store's path, if it does not.
    var fileChange: String? {
        file?.change
    }
    /// The most rows a table page shows.
    static let pageSize = 50
    /// The most entries a feed or history page shows.
    static let feedPageSize = 100

    /// A new random token: 32 bytes from the system's secure generator, as hex.
    static func newToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<4).map { _ in String(generator.next() as UInt64, radix: 16).leftPadded(to: 16) }.joined()
    }
}

extension String {
    /// The string with zeros in front up to `width` characters.
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
#endif
