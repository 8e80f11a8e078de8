/// Many keys bound as one value: a JSON array that `json_each` opens in SQL, so one statement's
/// text (and one cached statement) serves any number of keys, and no statement meets SQLite's
/// limit of 32,766 bound values.
///
/// ```
/// SELECT … WHERE rowid IN (SELECT value FROM json_each(?))   -- bound to KeyList.of(rowIDs:)
/// ```
enum KeyList {
    /// The condition's tail, after the column: `IN (SELECT value FROM json_each(?))`.
    static let inBoundList = "IN (SELECT value FROM json_each(?))"

    /// Rowids as one bound value.
    static func of(rowIDs: some Sequence<Int64>) -> SQLiteValue {
        .text("[" + rowIDs.map(String.init).joined(separator: ",") + "]")
    }

    /// Keys as one bound value, or `nil` if a key is neither an integer nor text (a JSON array
    /// would not give it back as it is: a real's digits, a blob's bytes).
    static func of(_ keys: [SQLiteValue]) -> SQLiteValue? {
        var json = "["
        for (offset, key) in keys.enumerated() {
            if offset > 0 { json += "," }
            switch key {
            case .integer(let number): json += String(number)
            case .text(let text): JSONString.append(text, to: &json)
            default: return nil
            }
        }
        return .text(json + "]")
    }
}

/// A read of rows by rowid, written once for one rowid and once for a list. One rowid is bound
/// as itself (`rowid = ?`) and looked up directly; a list (``KeyList``) makes SQLite fill a
/// temporary table from `json_each` first, which costs more than the lookup itself. Most of a
/// commit's reads are of one row.
struct RowIDRead: Sendable {
    private let single: String
    private let list: String

    /// `prefix` is the statement up to the rowid's condition: `SELECT … WHERE … AND rowid`.
    /// Both texts are written here, for a read that is kept and used at many commits.
    init(_ prefix: String) {
        single = prefix + Self.oneRowID
        list = prefix + Self.listOfRowIDs
    }

    /// The statement's text for `rowIDs`, and the value that binds them (the last parameter).
    func text(for rowIDs: some Collection<Int64>) -> (sql: String, rowIDs: SQLiteValue) {
        if let only = Self.only(rowIDs) { return (single, .integer(only)) }
        return (list, KeyList.of(rowIDs: rowIDs))
    }

    /// ``text(for:)`` of a read made once: only the text `rowIDs` needs is written.
    static func text(_ prefix: String, for rowIDs: some Collection<Int64>) -> (sql: String, rowIDs: SQLiteValue) {
        if let only = only(rowIDs) { return (prefix + oneRowID, .integer(only)) }
        return (prefix + listOfRowIDs, KeyList.of(rowIDs: rowIDs))
    }

    private static let oneRowID = " = ?"
    private static let listOfRowIDs = " " + KeyList.inBoundList

    private static func only(_ rowIDs: some Collection<Int64>) -> Int64? {
        rowIDs.count == 1 ? rowIDs.first : nil
    }
}
