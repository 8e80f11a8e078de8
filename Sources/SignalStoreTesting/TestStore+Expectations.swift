extension TestStore {
    /// Runs `body`, then checks that exactly the `expected` entries reached the change feed
    /// while it ran, in order, whoever wrote them: the body's own writes, a `sqlite3` shell,
    /// another process the body started.
    ///
    /// Exhaustive: an entry missing, an extra one, two in another order or a different value
    /// each fail the test at the caller's line, with expected and actual side by side and the
    /// first difference marked. No sleeps: the entries are read once ``settle()`` returns.
    /// ```swift
    /// try await store.expectChanges([
    ///     .update(\Order.status, id: 42, from: "open", to: "paid"),
    /// ]) {
    ///     order.status = "paid"
    /// }
    /// ```
    /// - Parameters:
    ///   - expected: The entries, in commit order.
    ///   - isolation: Where `body` runs: the caller's isolation (leave the default).
    ///   - fileID: Where a failure is reported (leave the default: the call's file).
    ///   - filePath: Where a failure is reported (leave the default: the call's file).
    ///   - line: Where a failure is reported (leave the default: the call's line).
    ///   - column: Where a failure is reported (leave the default: the call's column).
    ///   - body: The code under test; it runs in the caller's isolation.
    /// - Throws: What `body` throws (nothing is checked then), or a `StoreError` reading the
    ///   journal.
    public func expectChanges(
        _ expected: [ExpectedChange],
        isolation: isolated (any Actor)? = #isolation,
        fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column,
        _ body: () async throws -> Void
    ) async throws {
        let start = try store.lastChangeSeq
        try await body()
        await settle()
        let arrived = try ArrivedChange.all(after: start, in: store)
        if let last = arrived.last?.change.seq, last > start { asserted.withLock { $0.append((start + 1)...last) } }
        let diff = FeedDiff(expected: expected.map(\.description), actual: arrived.map(\.description)) { index in
            arrived[index].matches(expected[index])
        }
        if let message = diff.message("the change feed") {
            TestFailure.record(message, at: CallerLocation(fileID: fileID, filePath: filePath, line: line, column: column))
        }
    }

    /// Runs `body`, then checks that it committed nothing, by any writer (see
    /// ``expectChanges(_:isolation:fileID:filePath:line:column:_:)``).
    public func expectNoChanges(
        isolation: isolated (any Actor)? = #isolation,
        fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column,
        _ body: () async throws -> Void
    ) async throws {
        try await expectChanges([], isolation: isolation, fileID: fileID, filePath: filePath, line: line, column: column, body)
    }
}
