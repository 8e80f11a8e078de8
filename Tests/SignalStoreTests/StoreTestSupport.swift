import Foundation
@testable import SignalStore

/// Where a test's store lives: the same test body runs on both.
enum StoreKind: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case inMemory
    case file

    var testDescription: String { rawValue }
}

import Testing
@_exported import SignalStoreTestSupport

/// A store of the given kind on the example schema; the directory keeps a file store's files.
func makeStore(_ kind: StoreKind, in directory: TemporaryDirectory = TemporaryDirectory()) throws -> (Store, TemporaryDirectory) {
    switch kind {
    case .inMemory: return (try Store.inMemory(migrations: packageMigrations), directory)
    case .file: return (try Store(path: directory.path("test.sqlite"), migrations: packageMigrations), directory)
    }
}

/// Runs a query through the store's connection.
func rows(_ store: Store, _ sql: String, _ arguments: [SQLiteValue] = []) throws -> [[SQLiteValue]] {
    try store.readConnection { connection in try Statement(database: connection.handle, sql: sql).rows(arguments) }
}

/// The built `StoreTestHelper` executable, next to the test bundle.
let helperExecutable = builtExecutable("StoreTestHelper")

/// Runs a program to completion and returns its exit status and output.
@discardableResult
func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String, error: String) {
    try runProgram(URL(fileURLWithPath: executable), arguments)
}

/// Opens a store with `open`, subscribes to the signal `signal` makes of it, and lets go of the
/// store: whether it was freed (no signal kept it alive) and whether the subscription completed.
func releasingTheStore<Value>(_ open: () throws -> Store, _ signal: (Store) -> Signal<Value, Never>) rethrows -> (isFreed: Bool, completed: Bool) {
    var store: Store? = try open()
    weak let released = store
    let completed = Locked(false)
    let subscription = signal(store!).subscribe(onCompleted: { completed.withLock { $0 = true } })
    defer { subscription.dispose() }
    store = nil
    return (released == nil, completed.withLock { $0 })
}
