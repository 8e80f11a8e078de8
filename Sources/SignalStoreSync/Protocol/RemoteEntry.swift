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
    /// The PostgreSQL role that uploaded it: the server's record (`log.uploaded_by`), which no
    /// client chooses. `nil` in a move's carried history.
    var uploadedBy: String? = nil
    /// Why this version cannot read the entry, when the log says what no SignalStore writes
    /// (an operation it does not know, a move's history that is not one): it is set aside
    /// (``SyncClient``'s unreadable entries), never applied.
    var unreadable: String? = nil
    /// The concurrent edit this entry lists, as the server's log keeps it (``ConcurrentEditsSQL``):
    /// a JSON object naming the other change, or `nil`.
    var overlap: String? = nil

    var stamp: Stamp { Stamp(clock: entry.clock, origin: origin) }

    init(position: Int64, origin: String, entry: SyncEntry) {
        self.position = position
        self.origin = origin
        self.entry = entry
    }

    /// An entry as the log's columns spell it (`column` and `payload` empty for none). An
    /// operation this version does not know makes an ``unreadable`` entry (read as an update).
    init(position: Int64, origin: String, originSeq: Int64, clock: Int64, table: String, key: String,
         operation op: String, column: String, payload: String) {
        let operation = Change.Operation(rawValue: op)
        self.init(position: position, origin: origin, entry: SyncEntry(
            originSeq: originSeq, clock: HybridLogicalClock(rawValue: clock), table: table, key: key, operation: operation ?? .update,
            column: column.isEmpty ? nil : column, payload: operation == .delete ? nil : payload
        ))
        if operation == nil { unreadable = "its operation '\(op)' is none of insert, update, delete" }
    }

    /// The entries of a move's `carried` JSON (the server's `row_history`), for the row `key`
    /// of `table`; `nil` when it is not such a history.
    static func history(_ json: String, of table: String, _ key: String) -> [RemoteEntry]? {
        guard case .array(let items)? = JSONValue(parsing: json) else { return nil }
        var entries: [RemoteEntry] = []
        for item in items {
            guard case .object(let members) = item else { return nil }
            let fields = Dictionary(members, uniquingKeysWith: { first, _ in first })
            func integer(_ name: String) -> Int64 { if case .integer(let value)? = fields[name] { value } else { 0 } }
            func text(_ name: String) -> String { if case .string(let value)? = fields[name] { value } else { "" } }
            entries.append(RemoteEntry(position: integer("position"), origin: text("origin"), originSeq: integer("origin_seq"), clock: integer("hlc"),
                                       table: table, key: key, operation: text("op"), column: text("col"), payload: text("payload")))
        }
        return entries
    }

    /// Why the applier could not read this entry, or `nil`: what ``unreadable`` says, or a key,
    /// row or value that is not in the log's encoding (``SyncValueCoding``), here or in its
    /// carried history. Pure; the applier finds the same problems as it goes.
    var problem: String? {
        if let unreadable { return unreadable }
        let entry = entry
        guard SyncValueCoding.decodeKey(entry.key) != nil else { return "its key is not a JSON array of values" }
        switch entry.operation {
        case .insert:
            guard let payload = entry.payload, SyncValueCoding.decodeRowInOrder(payload) != nil else { return "it is an insert without a readable row" }
        case .update:
            guard entry.column != nil, let payload = entry.payload, SyncValueCoding.decode(payload) != nil else {
                return "it is an update without a readable column and value"
            }
        case .delete:
            break
        }
        return carried.lazy.compactMap(\.problem).first.map { "an entry of its carried history cannot be read: \($0)" }
    }
}

/// An entry of the server's log that this replica cannot read (``RemoteEntry/problem``), met
/// while applying a batch: the batch goes again without it, and it is set aside.
struct UnreadableEntry: Error {
    let remote: RemoteEntry
    let reason: String
}
#endif
