import Foundation
@testable import SignalStore
@_exported import SignalStoreTestSupport

/// The helper process of these suites.
let reliabilityHelper = builtExecutable("ReliabilityHelper")

/// A row as column name → value.
typealias Row = [String: SQLiteValue]

/// Reads a database the way an auditor would: its own read-only connection, nothing cached.
struct DatabaseAudit {
    let connection: Connection

    init(path: String) throws {
        connection = try Connection(path: path, readOnly: true)
    }

    /// `PRAGMA integrity_check`'s verdict ("ok" when sound).
    func integrity() throws -> String {
        let rows = try connection.statement("PRAGMA integrity_check").rows()
        return rows.map { row in
            if case .text(let text)? = row.first { return text }
            return "\(row)"
        }.joined(separator: "; ")
    }

    /// Whether `table` exists.
    func hasTable(_ table: String) throws -> Bool {
        try connection.statement("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?").rows([.text(table)]).first?.first == .integer(1)
    }

    /// Every row of `table` by rowid, every column.
    func rows(of table: String) throws -> [Int64: Row] {
        let columns = try connection.statement("SELECT name FROM pragma_table_info(?)").rows([.text(table)]).compactMap { row -> String? in
            if case .text(let name) = row[0] { return name }
            return nil
        }
        let list = columns.map { "\"\($0)\"" }.joined(separator: ", ")
        var result: [Int64: Row] = [:]
        for row in try connection.statement("SELECT rowid, \(list) FROM \"\(table)\"").rows() {
            guard case .integer(let rowID) = row[0] else { continue }
            result[rowID] = Dictionary(uniqueKeysWithValues: zip(columns, row.dropFirst()))
        }
        return result
    }

    /// The journal, in seq order.
    func journal() throws -> [Change] {
        try connection.statement("SELECT \(Journal.selectColumns) FROM \(Journal.changes) ORDER BY seq").rows().compactMap(Change.init(row:))
    }

    /// `table` rebuilt by replaying the journal from the start.
    func replayedRows(of table: String) throws -> [Int64: Row] {
        var rows: [Int64: Row] = [:]
        for change in try journal() where change.table == table {
            switch change.operation {
            case .insert: rows[change.rowID] = change.row
            case .delete: rows[change.rowID] = nil
            case .update: if let column = change.column { rows[change.rowID]?[column] = change.newValue ?? .null }
            }
        }
        return rows
    }
}
