import Foundation

/// A real `Store` on a temporary file, for tests of code that changes state: removed with
/// everything in its folder when released.
///
/// ```swift
/// import SignalStoreTesting
///
/// @Test func payingAnOrder() async throws {
///     let store = try TestStore(migrations: migrationsURL)      // a temporary file, removed after
///     let order = Order(id: 42, purchaseNum: 1, status: "open")
///     try store.insert(order)
///     try await store.expectChanges([
///         .update(\Order.purchaseNum, id: 42, from: 1, to: 3),
///         .update("orders", id: 42, "status", from: "open", to: "paid"),
///     ]) {
///         order.purchaseNum = 3
///         try store.sqlite3("UPDATE orders SET status = 'paid' WHERE id = 42")   // a real foreign writer
///     }
/// }
/// ```
/// Everything a test asserts on is real: the file, the capture triggers, the other
/// connections and processes that write to it. Waiting is deterministic: ``settle()`` looks
/// for other writers' commits at once instead of waiting for the next poll.
public final class TestStore: Sendable {
    /// The store.
    public let store: Store
    /// The database file.
    public let path: String
    /// The journal's last seq once the store was ready (after the fixture): golden feeds
    /// (``assertFeed(matches:fileID:filePath:line:column:)``) start after it.
    public let startSeq: Int64
    private let folder: TemporaryFolder

    /// Opens a new store on a temporary file with the `.sql` migrations in `migrations`, then
    /// replays `fixture` into its tables.
    /// - Parameters:
    ///   - migrations: The folder of `NNNN_description.sql` files.
    ///   - fixture: A feed in the `signalstore changes --json` format (a JSON array, or JSON
    ///     lines), replayed into the tables in one transaction: a state recorded from a real
    ///     database becomes the test's starting point.
    /// - Throws: `StoreError` if a migration fails; ``TestStoreError`` if the fixture cannot
    ///   be read or replayed.
    public convenience init(migrations: URL, fixture: URL? = nil) throws {
        let loaded: [Migration]
        do { loaded = try Migration.load(from: migrations) } catch { throw StoreError.migration(error) }
        try self.init(migrations: loaded, fixture: fixture)
    }

    /// Opens a new store on a temporary file with `migrations`, then replays `fixture` into its
    /// tables (see ``init(migrations:fixture:)-(URL,_)``).
    public init(migrations: [Migration], fixture: URL? = nil) throws {
        folder = try TemporaryFolder()
        path = folder.url.appendingPathComponent("test.sqlite").path
        try MigratedTemplate.copy(for: migrations, to: path)
        store = try Store(path: path, migrations: migrations)
        if let fixture { try FixtureReplay.replay(fixture, into: store) }
        startSeq = try store.lastChangeSeq
    }

    deinit {
        store.close()
    }

    /// Returns once every commit made so far, by any connection or process, has reached the
    /// change feed, live objects and query signals. No sleeps: other writers' commits are looked
    /// for now, not at the store's next poll.
    public func settle() async {
        await store.settle()
    }
}

/// Why a ``TestStore`` could not do what a test asked.
public struct TestStoreError: Error, CustomStringConvertible {
    /// What went wrong and what to do.
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}

/// A folder under the system's temporary folder, removed with its contents when released.
final class TemporaryFolder: Sendable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("signalstore-test-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            throw TestStoreError("cannot create a temporary folder at \(url.path): \(error.localizedDescription)")
        }
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}
