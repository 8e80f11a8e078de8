import Foundation

/// Replays a feed in the `signalstore changes --json` format into a store's tables: each entry
/// is written again at its rowid, in order, in one transaction, through the store (so the
/// journal records the replay like any other write).
enum FixtureReplay {
    static func replay(_ file: URL, into store: Store) throws {
        let text: String
        do {
            text = try String(contentsOf: file, encoding: .utf8)
        } catch {
            throw TestStoreError(missingFixture(file, error))
        }
        let entries: [FeedEntry]
        do {
            entries = try ChangeJSON.decode(text)
        } catch {
            throw TestStoreError("the fixture \(file.lastPathComponent): \(error)")
        }
        do {
            try store.writeTransaction { connection in
                // The recorded order satisfied the foreign keys when it was recorded; checked
                // at the commit, not entry by entry.
                try connection.execute("PRAGMA defer_foreign_keys=ON")
                for (index, entry) in entries.enumerated() {
                    try apply(entry, number: index + 1, connection)
                }
            }
        } catch let error as TestStoreError {
            throw error
        } catch {
            throw TestStoreError("the fixture \(file.lastPathComponent) does not fit the migrated tables: \(error); record it from a database on the same migrations")
        }
    }

    private static func apply(_ entry: FeedEntry, number: Int, _ connection: Connection) throws {
        let sql: String
        let arguments: [SQLiteValue]
        switch entry.operation {
        case .insert:
            let row = entry.row ?? [:]
            let columns = row.keys.sorted()
            sql = RowSQL.insert(into: entry.table, columns: ["rowid"] + columns)
            arguments = [.integer(entry.rowID)] + columns.map { row[$0] ?? .null }
        case .update:
            sql = RowSQL.update(entry.table, columns: [entry.column ?? ""])
            arguments = [entry.newValue ?? .null, .integer(entry.rowID)]
        case .delete:
            sql = RowSQL.delete(from: entry.table)
            arguments = [.integer(entry.rowID)]
        }
        try connection.statement(sql).run(arguments)
        guard connection.changes == 1 else {
            throw TestStoreError("fixture entry \(number) (\(entry.operation.rawValue) of \(entry.table) row \(entry.rowID)) changed \(connection.changes) rows instead of one: the fixture is not a whole feed from an empty database; record it with `signalstore changes --json --since 0`")
        }
    }

    /// Why a fixture cannot be read, and the command that records it where the test looks
    /// (the path as the test gave it, its folder made first).
    static func missingFixture(_ file: URL, _ error: any Error) -> String {
        let reason = error.localizedDescription.trimmingCharacters(in: CharacterSet(charactersIn: ". "))
        let path = file.relativePath
        let folder = (path as NSString).deletingLastPathComponent
        let makeFolder = folder.isEmpty ? "" : "mkdir -p \(folder) && "
        return "cannot read the fixture \(path): \(reason); record one in the package folder with `\(makeFolder)swift run signalstore changes --json --db app.sqlite > \(path)`"
    }
}
