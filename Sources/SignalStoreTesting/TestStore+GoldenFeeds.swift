import Foundation

extension TestStore {
    /// Compares every entry committed since the store was ready (after its fixture) with the
    /// golden file `__Feeds__/<name>.jsonl` beside the calling test's file.
    ///
    /// The file holds one entry per line in the `signalstore changes --json` schema, without
    /// timestamps and with seqs counted from the test's start, so it is stable across runs. It
    /// is written when missing, or with `SIGNALSTORE_RECORD=1` in the environment; review it and
    /// commit it. A difference fails the test at the caller's line with both sides and the first
    /// difference marked.
    public func assertFeed(
        matches name: String,
        fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async throws {
        let folder = URL(fileURLWithPath: "\(filePath)").deletingLastPathComponent().appendingPathComponent("__Feeds__")
        try await assertFeed(matches: name, in: folder, at: CallerLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    /// ``assertFeed(matches:fileID:filePath:line:column:)`` with the golden file in `folder`.
    func assertFeed(matches name: String, in folder: URL, at location: CallerLocation) async throws {
        await settle()
        let actual = try goldenLines()
        let file = folder.appendingPathComponent("\(name).jsonl")
        let recording = ProcessInfo.processInfo.environment["SIGNALSTORE_RECORD"] == "1"
        guard !recording, FileManager.default.fileExists(atPath: file.path) else {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(actual.map { $0 + "\n" }.joined().utf8).write(to: file)
            return
        }
        let expected = try String(contentsOf: file, encoding: .utf8).split(separator: "\n").map(String.init)
        let diff = FeedDiff(expected: expected, actual: actual) { expected[$0] == actual[$0] }
        if let message = diff.message("the feed recorded in __Feeds__/\(name).jsonl") {
            TestFailure.record(message + "\n(run with SIGNALSTORE_RECORD=1 to record the new feed)", at: location)
        }
    }

    /// The entries since ``startSeq`` as golden-file lines.
    private func goldenLines() throws -> [String] {
        let changes = try store.journalEntries(after: startSeq)
        var columnOrders: [String: [String]] = [:]
        return try store.readConnection { connection in
            try changes.map { change in
                if columnOrders[change.table] == nil {
                    columnOrders[change.table] = try store.schema.table(change.table, connection)?.columnNames ?? []
                }
                let seq = change.seq - startSeq
                return ChangeJSON.encode(change, columnOrder: columnOrders[change.table] ?? [], seq: seq, includingTimestamp: false).rendered
            }
        }
    }
}
