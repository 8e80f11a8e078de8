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
public final class TestStore: StoreOperations {
    /// The store; the common calls (`insert`, `find`, `all`, `transaction`, `changes`, …) are
    /// `StoreOperations`' calls, run on it.
    public let store: Store
    /// The database file.
    public let path: String
    /// The journal's last seq once the store was ready (after the fixture): golden feeds
    /// (``assertFeed(matches:fileID:filePath:line:column:)``) start after it.
    public let startSeq: Int64
    /// Whether every entry of the test must be asserted (``Exhaustivity``).
    public let exhaustivity: Exhaustivity
    private let folder: TemporaryFolder
    /// The seqs `expectChanges` asserted, as ranges, for ``Exhaustivity/on``.
    let asserted = Locked<[ClosedRange<Int64>]>([])
    /// Where the store was made: a whole-test exhaustivity failure points there.
    private let creation: CallerLocation

    /// Opens a new store on a temporary file with the `.sql` migrations in `migrations`, then
    /// replays `fixture` into its tables.
    /// - Parameters:
    ///   - migrations: The folder of `NNNN_description.sql` files.
    ///   - fixture: A feed in the `signalstore changes --json` format (a JSON array, or JSON
    ///     lines), replayed into the tables in one transaction: a state recorded from a real
    ///     database becomes the test's starting point.
    ///   - exhaustivity: `.on` fails the test, when the store is released, with every entry
    ///     committed after the fixture that no ``expectChanges(_:isolation:fileID:filePath:line:column:_:)``
    ///     asserted; `.off` (the default) checks each block only.
    ///   - fileID: Where an exhaustivity failure is reported (leave the default: the call's file).
    ///   - filePath: Where an exhaustivity failure is reported (leave the default: the call's file).
    ///   - line: Where an exhaustivity failure is reported (leave the default: the call's line).
    ///   - column: Where an exhaustivity failure is reported (leave the default: the call's column).
    /// - Throws: `StoreError` if a migration fails; ``TestStoreError`` if the fixture cannot
    ///   be read or replayed.
    public convenience init(
        migrations: URL, fixture: URL? = nil, exhaustivity: Exhaustivity = .off,
        fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) throws {
        let loaded: [Migration]
        do { loaded = try Migration.load(from: migrations) } catch { throw StoreError.migration(error) }
        try self.init(migrations: loaded, fixture: fixture, exhaustivity: exhaustivity, fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// Opens a new store on a temporary file with `migrations`, then replays `fixture` into its
    /// tables (see ``init(migrations:fixture:exhaustivity:fileID:filePath:line:column:)-(URL,_,_,_,_,_,_)``).
    public init(
        migrations: [Migration], fixture: URL? = nil, exhaustivity: Exhaustivity = .off,
        fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) throws {
        self.exhaustivity = exhaustivity
        creation = CallerLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        folder = try TemporaryFolder()
        path = folder.url.appendingPathComponent("test.sqlite").path
        try MigratedTemplate.copy(for: migrations, to: path)
        store = try Store(path: path, migrations: migrations)
        if let fixture { try FixtureReplay.replay(fixture, into: store) }
        startSeq = try store.lastChangeSeq
    }

    deinit {
        if exhaustivity == .on { checkEverythingAsserted() }
        store.close()
    }

    /// Fails the test with the entries committed since the store was ready that no
    /// `expectChanges` asserted.
    private func checkEverythingAsserted() {
        let ranges = asserted.withLock { $0 }
        do {
            let left = try ArrivedChange.all(after: startSeq, in: store).filter { arrived in
                !ranges.contains { $0.contains(arrived.change.seq) }
            }
            guard !left.isEmpty else { return }
            let listed = left.prefix(50).map { "  #\($0.change.seq) \($0.description)" }.joined(separator: "\n")
            let more = left.count > 50 ? "\n  … and \(left.count - 50) more" : ""
            TestFailure.record("exhaustivity .on: \(left.count) \(left.count == 1 ? "entry was" : "entries were") committed during the test and asserted by no expectChanges; assert them, or make this TestStore with exhaustivity: .off:\n\(listed)\(more)", at: creation)
        } catch {
            TestFailure.record("exhaustivity .on: cannot read the journal to check it: \(error)", at: creation)
        }
    }

    /// Returns once every commit made so far, by any connection or process, has reached the
    /// change feed, live objects and query signals. No sleeps: other writers' commits are looked
    /// for now, not at the store's next poll.
    public func settle() async {
        await store.settle()
    }
}

/// Whether a ``TestStore`` checks, when released, that the test asserted every entry
/// committed while it ran, as TCA's `TestStore` checks every action.
public enum Exhaustivity: Sendable {
    /// Every entry committed after the store was ready (the fixture replayed) must be covered
    /// by some ``TestStore/expectChanges(_:isolation:fileID:filePath:line:column:_:)``; the rest
    /// fail the test, listed, when the store is released.
    case on
    /// Each `expectChanges` checks its own block only; what happens between blocks is not
    /// checked.
    case off
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
