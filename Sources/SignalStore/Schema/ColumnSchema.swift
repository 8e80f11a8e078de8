/// One column of a table, as the schema declares it.
package struct ColumnSchema: Sendable, Equatable {
    /// The column's name.
    package let name: String
    /// The declared type as written (`INTEGER`, `VARCHAR(20)`), `""` when none.
    package let declaredType: String
    /// Whether the column is declared `NOT NULL`.
    package let notNull: Bool
    /// The `DEFAULT` expression as written, if any.
    package let defaultSQL: String?
    /// The column's position in the primary key (1-based), 0 if not part of it.
    package let primaryKeyPosition: Int
    /// The name of the collation the column declares (`BINARY` when it declares none).
    package let collation: String

    /// SQLite's affinity for the declared type (worked out once: sync asks for it per
    /// applied row).
    package let affinity: ColumnAffinity

    package init(name: String, declaredType: String, notNull: Bool, defaultSQL: String?, primaryKeyPosition: Int, collation: String = "BINARY") {
        self.name = name
        self.collation = collation
        self.declaredType = declaredType
        self.notNull = notNull
        self.defaultSQL = defaultSQL
        self.primaryKeyPosition = primaryKeyPosition
        affinity = ColumnAffinity(declaredType: declaredType)
    }
}
