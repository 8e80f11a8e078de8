import Foundation
@testable import SignalStore

/// Rebuilds captured tables from the change feed alone: the property the journal must satisfy.
enum JournalReplay {
    /// A new in-memory connection with empty copies of `store`'s user tables (no triggers).
    static func emptyCopy(of store: Store) throws -> (Connection, [String]) {
        let schema = try rows(store, "SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '\\_signalstore\\_%' ESCAPE '\\'")
        let copy = try Connection(path: ":memory:")
        try copy.execute("PRAGMA foreign_keys=OFF")
        var tables: [String] = []
        for row in schema {
            guard case .text(let name) = row[0], case .text(let sql) = row[1] else { continue }
            try copy.execute(sql)
            tables.append(name)
        }
        return (copy, tables)
    }

    /// Applies every entry, in seq order, to `connection`.
    static func apply(_ changes: [Change], to connection: Connection) throws {
        for change in changes {
            let table = identifier(change.table)
            switch change.operation {
            case .insert:
                let row = change.row ?? [:]
                let columns = try existingColumns(of: change.table, connection).filter { row[$0] != nil }
                let placeholders = Array(repeating: "?", count: columns.count + 1).joined(separator: ", ")
                try Statement(database: connection.handle, sql: "INSERT OR REPLACE INTO \(table) (rowid, \(columns.map(identifier).joined(separator: ", "))) VALUES (\(placeholders))")
                    .run([.integer(change.rowID)] + columns.map { row[$0]! })
            case .delete:
                try Statement(database: connection.handle, sql: "DELETE FROM \(table) WHERE rowid = ?").run([.integer(change.rowID)])
            case .update:
                guard let column = change.column, try existingColumns(of: change.table, connection).contains(column) else { continue }
                try Statement(database: connection.handle, sql: "UPDATE \(table) SET \(identifier(column)) = ? WHERE rowid = ?")
                    .run([change.newValue ?? .null, .integer(change.rowID)])
            }
        }
    }

    static func existingColumns(of table: String, _ connection: Connection) throws -> [String] {
        try Statement(database: connection.handle, sql: "SELECT name FROM pragma_table_info(?)").rows([.text(table)]).compactMap {
            if case .text(let name) = $0[0] { return name } else { return nil }
        }
    }

    /// Every row of `table`, with its rowid, in rowid order.
    static func contents(of table: String, _ connection: Connection) throws -> [[SQLiteValue]] {
        try Statement(database: connection.handle, sql: "SELECT rowid, * FROM \(identifier(table)) ORDER BY rowid").rows()
    }

    /// Every journal entry of `store`, from seq 0.
    static func allChanges(_ store: Store) throws -> [Change] {
        try store.read { connection in try Store.readChanges(connection, after: 0) }
    }
}

/// A small deterministic random generator (SplitMix64), so property tests are reproducible.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
