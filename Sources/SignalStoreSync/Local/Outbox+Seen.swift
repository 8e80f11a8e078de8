#if SIGNALSTORE_SYNC
import Foundation
import SignalStore

/// What an update's writer had seen of its column, stamped with the update, and the change that
/// resolves a concurrent edit: the outbox's half of the conflict inbox (``ConcurrentEdits``).
extension Outbox {
    /// Brings an outbox from before concurrent edits were told apart to today's columns: its
    /// updates say nothing of what their writer had seen, and are never listed as concurrent.
    static func addSeenColumns(_ connection: Connection) throws {
        let present = try connection.statement("SELECT name FROM pragma_table_info('\(table)')").rows().compactMap { $0[0].textValue }
        guard !present.contains("seen") else { return }
        try connection.execute("""
            ALTER TABLE \(table) ADD COLUMN seen INTEGER;
            ALTER TABLE \(table) ADD COLUMN base TEXT;
            ALTER TABLE \(table) ADD COLUMN resolves INTEGER;
            """)
    }


    /// Adds the change that resolves the concurrent edit at log position `position`: an update
    /// of its column to `value`, stamped now, uploaded like any other, after which the server
    /// takes the edit out of every replica's inbox.
    static func addResolution(
        of position: Int64, table: String, key: String, column: String, value: SQLiteValue, replacing old: SQLiteValue,
        _ state: inout ReplicaState.Position, _ connection: Connection
    ) throws {
        state.clock = .next(after: state.clock, wallClock: Date())
        var entry = SyncEntry(originSeq: 0, clock: state.clock, table: table, key: key, operation: .update, column: column, payload: SyncValueCoding.encode(value))
        entry.seen = SeenState(position: state.serverCursor, base: SyncValueCoding.encode(old))
        entry.resolves = position
        try add(entry, origin: state.origin, connection)
    }
}
#endif
