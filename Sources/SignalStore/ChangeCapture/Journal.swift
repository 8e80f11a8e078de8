/// The tables the store owns, besides `_signalstore_migrations`.
///
/// - `_signalstore_changes`: the change feed. `seq` is `AUTOINCREMENT`, so sequence numbers only
///   grow, even after pruning. `old_value` and `new_value` have no declared type, so SQLite keeps
///   each value's exact storage class.
/// - `_signalstore_state`: key/value bookkeeping (`pruned_through`: the prune horizon).
enum Journal {
    static let changes = "_signalstore_changes"
    static let state = "_signalstore_state"

    static let schema = """
        CREATE TABLE IF NOT EXISTS \(changes) (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            table_name TEXT NOT NULL,
            row_id INTEGER NOT NULL,
            operation TEXT NOT NULL CHECK (operation IN ('insert', 'update', 'delete')),
            column_name TEXT,
            old_value,
            new_value,
            timestamp REAL NOT NULL
        );
        CREATE TABLE IF NOT EXISTS \(state) (key TEXT PRIMARY KEY, value);
        """

    /// The columns read back as a ``Change``, in order.
    static let selectColumns = "seq, table_name, row_id, operation, column_name, old_value, new_value, timestamp"

    /// SQL for the current time as seconds since 1970 (a real, millisecond precision).
    static let now = "((julianday('now') - 2440587.5) * 86400.0)"
}
