import CSQLite

extension Connection {
    /// The name of the collation `column` of `table` declares (`BINARY` when it declares none),
    /// or `nil` when there is no such column.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/c3ref/table_column_metadata.html>
    func declaredCollation(table: String, column: String) -> String? {
        var collation: UnsafePointer<CChar>?
        let code = sqlite3_table_column_metadata(handle, "main", table, column, nil, &collation, nil, nil, nil)
        guard code == SQLITE_OK, let collation else { return nil }
        return String(cString: collation)
    }
}
