/// The change journal: its tables, its capture triggers, reading and pruning. The one place
/// that knows the journal's SQL; the store and the `signalstore` CLI call it.
///
/// Tables (besides `_signalstore_migrations`, which the migrator owns):
/// - `_signalstore_changes`: the change feed. `seq` is `AUTOINCREMENT`, so sequence numbers only
///   grow, even after pruning. `old_value` and `new_value` have no declared type, so SQLite keeps
///   each value's exact storage class. `operation` is checked by comparisons, not by an `IN`
///   list (see ``operationCheck``).
/// - `_signalstore_state`: key/value bookkeeping (`pruned_through`: the prune horizon).
/// - `_signalstore_evictions`: rows a `REPLACE` may be about to delete, staged by the capture
///   triggers for the duration of one row's insert or update (see ``CaptureTriggers``).
/// - `_signalstore_consumers`: durable named consumers of the feed and the seq each has
///   acknowledged; pruning keeps what any of them has not.
package enum Journal {
    static let changes = "_signalstore_changes"
    static let state = "_signalstore_state"
    static let evictions = "_signalstore_evictions"
    static let consumers = "_signalstore_consumers"

    static let schema = """
        CREATE TABLE IF NOT EXISTS \(changes) (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            table_name TEXT NOT NULL,
            row_id INTEGER NOT NULL,
            operation TEXT NOT NULL \(operationCheck),
            column_name TEXT,
            old_value,
            new_value,
            timestamp REAL NOT NULL
        );
        CREATE TABLE IF NOT EXISTS \(state) (key TEXT PRIMARY KEY, value);
        CREATE TABLE IF NOT EXISTS \(evictions) (table_name TEXT NOT NULL, row_id INTEGER NOT NULL, old_value);
        CREATE TABLE IF NOT EXISTS \(consumers) (
            name TEXT PRIMARY KEY,
            acknowledged_seq INTEGER NOT NULL,
            registered_at REAL NOT NULL,
            acknowledged_at REAL
        );
        """

    /// The columns read back as a ``Change``, in order.
    static let selectColumns = "seq, table_name, row_id, operation, column_name, old_value, new_value, timestamp"

    /// The columns the triggers write, in order.
    static let insertColumns = "table_name, row_id, operation, column_name, old_value, new_value, timestamp"

    /// SQL for the current time as seconds since 1970 (a real, millisecond precision).
    static let now = "((julianday('now') - 2440587.5) * 86400.0)"

    /// Creates the journal's tables where missing, and brings an older journal's
    /// ``operationCheck`` up to date.
    static func create(_ connection: Connection) throws {
        try connection.execute(schema)
        try upgradeOperationCheck(connection)
    }

    /// Makes the database on `connection` a captured one, in the open transaction: the journal's
    /// tables where missing (a database made by an earlier version gains the new ones), and
    /// capture of every user table brought up to date (tables seen for the first time have their
    /// rows journaled as inserts).
    static func attach(_ schema: SchemaCache, _ connection: Connection) throws {
        try create(connection)
        try installCapture(schema, connection, snapshotNewTables: true)
    }

    /// Whether the database on `connection` has a journal: it is a SignalStore database.
    package static func exists(_ connection: Connection) throws -> Bool {
        try connection.tableExists(changes)
    }
}
