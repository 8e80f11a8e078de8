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

extension ColumnAffinity {
    /// Whether a column of this affinity stores `value` exactly as given: no conversion to
    /// another storage class. `false` where SQLite converts it (an integer into a `REAL` or
    /// `TEXT` column, a whole real into an `INTEGER` or `NUMERIC` one, a text into any numeric
    /// one, which converts it when it reads as a number, `-0.0` into a `REAL` one, which keeps
    /// whole reals as integers on disk and reads this one back as `0.0`) or may (a NaN, stored
    /// as NULL).
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/datatype3.html#type_affinity>
    package func keeps(_ value: SQLiteValue) -> Bool {
        switch value {
        case .null, .blob: return true
        case .integer: return self == .integer || self == .numeric || self == .blob
        case .real(let real):
            switch self {
            case .real: return !real.isNaN && !(real == 0 && real.sign == .minus)   // -0.0 is stored as 0
            case .blob: return !real.isNaN
            case .integer, .numeric: return !real.isNaN && (!real.isFinite || real.rounded(.towardZero) != real)
            case .text: return false
            }
        case .text: return self == .text || self == .blob
        }
    }
}
