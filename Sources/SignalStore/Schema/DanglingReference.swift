/// Rows whose foreign key names a row that does not exist, found by `PRAGMA foreign_key_check`:
/// left by a writer with foreign keys off under a `NO ACTION` rule, by an insert that named a
/// missing parent, or from before the store enforced delete rules for every writer.
package struct DanglingReference: Sendable, Equatable {
    /// The referencing table and the foreign key's columns.
    package let child: String
    package let columns: [String]
    /// The table the key refers to.
    package let parent: String
    /// How many rows dangle, and the rowids of the first of them (at most ``sampleLimit``).
    package let count: Int
    package let sampleRowIDs: [Int64]

    /// How many rowids a reference lists.
    package static let sampleLimit = 5

    /// `orders.customer_id → customers: 2 rows (rowids 3, 5)`.
    package var description: String {
        let rows = count == 1 ? "1 row" : "\(count) rows"
        let more = count > sampleRowIDs.count ? ", …" : ""
        return "\(child).\(columns.joined(separator: ",")) → \(parent): \(rows) (rowid\(sampleRowIDs.count == 1 ? "" : "s") \(sampleRowIDs.map(String.init).joined(separator: ", "))\(more))"
    }

    /// Every dangling reference in the database, by table and foreign key, in the order
    /// `PRAGMA foreign_key_check` reports them.
    package static func all(_ connection: Connection) throws -> [DanglingReference] {
        var references: [DanglingReference] = []
        var index: [String: Int] = [:]
        for row in try connection.rows("PRAGMA foreign_key_check") {
            guard let child = row[0].textValue, let parent = row[2].textValue, let keyID = row[3].integerValue else { continue }
            let id = "\(keyID):\(child)"
            if index[id] == nil {
                index[id] = references.count
                let columns = try connection.rows(SQL("SELECT \"from\" FROM pragma_foreign_key_list(\(value: .text(child))) WHERE id = \(value: .integer(keyID)) ORDER BY seq"))
                    .compactMap { $0[0].textValue }
                references.append(DanglingReference(child: child, columns: columns, parent: parent, count: 0, sampleRowIDs: []))
            }
            let reference = references[index[id]!]
            var rowIDs = reference.sampleRowIDs
            if let rowID = row[1].integerValue, rowIDs.count < sampleLimit { rowIDs.append(rowID) }
            references[index[id]!] = DanglingReference(child: child, columns: reference.columns, parent: parent, count: reference.count + 1, sampleRowIDs: rowIDs)
        }
        return references
    }
}
