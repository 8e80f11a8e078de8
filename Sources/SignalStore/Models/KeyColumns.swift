/// The columns whose update moves a live object to another rowid, by table: `rowid`, and the
/// primary key of every model type filed for the table.
///
/// A batch of journal entries with no delete and no update of these columns completes and
/// moves no object, so it can be applied without holding the registry's lock (see
/// ``ModelRegistry/applyValues(_:to:)``). ``version`` counts the types noted: a copy checked
/// against a batch is still complete if the version has not moved.
struct KeyColumns: Sendable {
    private var byTable: [String: Set<String>] = [:]
    /// Every key column's name, of any table: a handful, compared before any table is looked up.
    private var names: [String] = []
    private var types: Set<ObjectIdentifier> = []
    /// The number of model types noted.
    private(set) var version = 0

    /// Notes the primary key of `type` (once per type).
    mutating func note(_ type: any PersistentModel.Type) {
        guard types.insert(ObjectIdentifier(type)).inserted else { return }
        let sql = ModelSQL.of(type)
        let key = sql.columnNames[sql.primaryKeyIndex]
        byTable[sql.table, default: []].insert(key)
        if !names.contains(key) { names.append(key) }
        version += 1
    }

    /// Whether applying any of `changes` may complete or move a live object: a delete, or an
    /// update of `rowid` or of a noted primary key. The key columns of the last table seen are
    /// kept at hand, since a batch is mostly one table.
    func mayChangeIdentities(_ changes: [Change]) -> Bool {
        var last: (table: String, keys: Set<String>)?
        for change in changes {
            switch change.operation {
            case .delete: return true
            case .insert: continue
            case .update:
                guard let column = change.column else { continue }
                // Names compared by their bytes, as SQLite compares them; a name of another
                // length is told apart at once.
                if column.hasSameUTF8(as: "rowid") { return true }
                guard names.contains(where: { $0.hasSameUTF8(as: column) }) else { continue }
                if last?.table != change.table { last = (change.table, byTable[change.table] ?? []) }
                if last?.keys.contains(column) == true { return true }
            }
        }
        return false
    }
}
