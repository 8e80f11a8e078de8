#if SIGNALSTORE_SYNC
import SignalStore

/// The entries of a downloaded batch that this replica cannot read, set aside so that sync goes
/// on: a replica never stops for another replica's entry.
///
/// The server checks what enters its log (``ServerLogSQL``), but a log can still hold an
/// entry no SignalStore of this version wrote: one written before those checks, by the tables'
/// owner around SignalStore, or by a newer version. Such an entry is not applied; it is listed
/// as a conflict of kind ``SyncConflict/Kind/unreadable``, with its position and origin, in the
/// transaction that applies the rest of its batch, and the cursor passes it. Only this
/// replica's own state (its file, its schema) stops sync.
///
/// Nothing is checked ahead on the usual path: a batch is walked as it comes, and only when
/// the applier meets an entry it cannot read (``UnreadableEntry``) does the walk go again, in
/// a savepoint, without every entry of the batch that ``RemoteEntry/problem`` finds (and the
/// one met, should the check have missed it).
struct UnreadableEntries {
    /// The entries still to apply, in log order.
    private(set) var readable: [RemoteEntry]
    /// The entries set aside, and why.
    private var left: [(remote: RemoteEntry, reason: String)] = []

    init(_ entries: [RemoteEntry]) {
        readable = entries
    }

    /// Leaves `met` out (the top-level entry, when it is one of a move's carried history) and,
    /// the first time, every other entry of the batch that cannot be read.
    /// - Throws: ``SyncError/server`` when `met` is not in the batch: nothing would change.
    mutating func leaveOut(_ met: UnreadableEntry) throws(SyncError) {
        let holds = { (entry: RemoteEntry) in entry.position == met.remote.position || entry.carried.contains { $0.position == met.remote.position } }
        guard let index = readable.firstIndex(where: holds) else {
            throw SyncError(.server, "an entry at position \(met.remote.position) of the server's log cannot be read (\(met.reason)), and it is not in the batch it came in; report it")
        }
        let first = left.isEmpty
        left.append((readable[index], met.reason))
        readable.remove(at: index)
        guard first else { return }
        var kept: [RemoteEntry] = []
        for entry in readable {
            if let reason = entry.problem { left.append((entry, reason)) } else { kept.append(entry) }
        }
        readable = kept
    }

    /// Records the entries left out as conflicts; returns how many.
    func setAside(_ connection: Connection) throws -> Int {
        for (remote, reason) in left {
            let entry = remote.entry
            try ConflictLog.add(ConflictLog.Record(
                origin: remote.origin, isLocal: false, table: entry.table, key: entry.key, operation: entry.operation, column: entry.column,
                row: nil, rule: "this replica cannot read it: \(reason)", collidedWith: "nothing: it was set aside, and sync went on",
                kind: .unreadable, position: remote.position, uploadedBy: remote.uploadedBy
            ), connection)
        }
        return left.count
    }
}
#endif
