/// SQLite's type affinity of a column, from its declared type, by SQLite's rules in their order.
///
/// Related SQLite documentation: <https://www.sqlite.org/datatype3.html#determination_of_column_affinity>
package enum ColumnAffinity: String, Sendable {
    case integer = "INTEGER", real = "REAL", text = "TEXT", blob = "BLOB", numeric = "NUMERIC"

    /// The affinity of a column declared `declaredType` (`""` when the column has no type).
    package init(declaredType: String) {
        let type = declaredType.uppercased()
        if type.contains("INT") {
            self = .integer
        } else if type.contains("CHAR") || type.contains("CLOB") || type.contains("TEXT") {
            self = .text
        } else if type.isEmpty || type.contains("BLOB") {
            self = .blob
        } else if type.contains("REAL") || type.contains("FLOA") || type.contains("DOUB") {
            self = .real
        } else {
            self = .numeric
        }
    }
}
