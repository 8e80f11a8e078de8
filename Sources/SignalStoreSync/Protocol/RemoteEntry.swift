#if SIGNALSTORE_SYNC
import SignalStore

/// A change from another replica, as read from the server's log.
struct RemoteEntry: Sendable, Equatable {
    /// Its position in the server's log.
    var position: Int64
    var origin: String
    var entry: SyncEntry
    /// The scope the server gave it (the row's value of the scope column), `nil` for a shared
    /// table's entry or a deployment without scopes.
    var scope: String? = nil
    /// For an entry that moved its row to another scope, the scope it left.
    var previousScope: String? = nil
    /// For a move, the entries before it that the row's registers keep (its history, as the
    /// server computed it): a replica that gains the row applies them first.
    var carried: [RemoteEntry] = []

    var stamp: Stamp { Stamp(clock: entry.clock, origin: origin) }

    init(position: Int64, origin: String, entry: SyncEntry) {
        self.position = position
        self.origin = origin
        self.entry = entry
    }

    /// An entry as the log's columns spell it (`column` and `payload` empty for none).
    /// - Throws: ``SyncError/server`` for an operation this version does not know.
    init(position: Int64, origin: String, originSeq: Int64, clock: Int64, table: String, key: String,
         operation op: String, column: String, payload: String) throws {
        guard let operation = Change.Operation(rawValue: op) else {
            throw SyncError(.server, "the server's log has an entry with operation '\(op)' at position \(position); the log was changed by hand or by a newer SignalStore")
        }
        self.init(position: position, origin: origin, entry: SyncEntry(
            originSeq: originSeq, clock: HybridLogicalClock(rawValue: clock), table: table, key: key, operation: operation,
            column: column.isEmpty ? nil : column, payload: operation == .delete ? nil : payload
        ))
    }

    /// The entries of a move's `carried` JSON (the server's `row_history`), for the row `key`
    /// of `table`.
    static func history(_ json: String, of table: String, _ key: String) throws -> [RemoteEntry] {
        guard case .array(let items)? = JSONValue(parsing: json) else {
            throw SyncError(.server, "the server's log has a move of \(table) \(key) whose history is not a JSON array; the log was changed by hand")
        }
        return try items.map { item in
            guard case .object(let members) = item else { throw SyncError(.server, "a move's history in the server's log holds a non-object") }
            let fields = Dictionary(members, uniquingKeysWith: { first, _ in first })
            func integer(_ name: String) -> Int64 { if case .integer(let value)? = fields[name] { value } else { 0 } }
            func text(_ name: String) -> String { if case .string(let value)? = fields[name] { value } else { "" } }
            return try RemoteEntry(position: integer("position"), origin: text("origin"), originSeq: integer("origin_seq"), clock: integer("hlc"),
                                   table: table, key: key, operation: text("op"), column: text("col"), payload: text("payload"))
        }
    }
}
#endif
