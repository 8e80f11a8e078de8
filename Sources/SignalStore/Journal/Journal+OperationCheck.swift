import Foundation

/// The journal's check of its `operation` column, and the upgrade of journals made before it.
///
/// Journals made by earlier versions checked `operation IN ('insert', 'update', 'delete')`.
/// SQLite evaluates an `IN` list of three or more constants by building a temporary index of
/// them, and a trigger program builds it again every time it runs: each journaled row paid for
/// opening, filling and closing a temporary B-tree, about a quarter of the SQLite instructions
/// of a journaled insert. Comparisons check the same values without it.
///
/// Related SQLite documentation: <https://www.sqlite.org/lang_altertable.html#otheralter>
/// (changing a `CHECK` constraint through `writable_schema`).
extension Journal {
    /// The `CHECK` of `operation`, as the journal's table declares it.
    static let operationCheck = "CHECK (operation = 'insert' OR operation = 'update' OR operation = 'delete')"

    /// What journals made by earlier versions declared instead.
    static let legacyOperationCheck = "CHECK (operation IN ('insert', 'update', 'delete'))"

    /// Rewrites the legacy check in the journal table's declaration, in place and in one
    /// transaction (the one open, or its own): both accept exactly the same rows, so neither the
    /// rows nor the file's format change, only the text SQLite compiles. Bumping
    /// `schema_version` makes every connection, in this process or another, read the new
    /// declaration before its next statement.
    ///
    /// Where SQLite refuses to rewrite the schema (a library built to open connections in
    /// defensive mode, an authorizer, another writer holding the lock past the busy timeout),
    /// the legacy check stays until the next open: it accepts the same rows, at its old cost, and
    /// opening the database must not fail for a speed-up.
    static func upgradeOperationCheck(_ connection: Connection) throws {
        let declaration = "SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = ?"
        guard let sql = try connection.scalar(declaration, [.text(changes)])?.textValue,
              sql.contains(legacyOperationCheck) else { return }
        let upgraded = sql.replacingOccurrences(of: legacyOperationCheck, with: operationCheck)
        do {
            try connection.transaction {
                let version = try connection.schemaVersion()
                try connection.execute("PRAGMA writable_schema = ON")
                defer { try? connection.execute("PRAGMA writable_schema = OFF") }
                try connection.statement("UPDATE sqlite_schema SET sql = ? WHERE type = 'table' AND name = ?").run([.text(upgraded), .text(changes)])
                try connection.execute("PRAGMA schema_version = \(version + 1)")
            }
        } catch is SQLiteError {
            return   // not rewritten now: the legacy check stays (see above)
        }
    }
}
