#if SIGNALSTORE_SYNC
import SignalStore

/// What the schema's constraints say about the synced tables, for applying and compacting.
extension SyncedTables {
    /// The tables whose rows no rule ties to other rows or to other columns' changes: no
    /// UNIQUE key besides the primary key, no CHECK, no foreign key either way. A change to
    /// one can break no rule of another change (see ``RemoteApplier/settlePending()``).
    var independent: Set<String> {
        var result: Set<String> = []
        for (name, table) in byName {
            guard !table.uniqueKeys.contains(where: { $0.columns != table.primaryKey || $0.readsAnyColumn }),
                  !foreignKeys.contains(where: { $0.parent == name || $0.child == name }), !checked.contains(name) else { continue }
            result.insert(name)
        }
        return result
    }

    /// The tables whose log entries compaction may remove: those no constraint ties to other
    /// rows' history. Replaying a compacted log skips superseded states, which is harmless
    /// for a row alone, but a UNIQUE key (other than the primary key), a row other rows
    /// reference, or a reference whose parent's delete cascades or is refused could then meet
    /// a state that never was, and decide a conflict differently. A reference whose parent's
    /// delete sets it to NULL or its default is harmless: the latest value is kept.
    var compactable: [String] {
        names.filter { name in
            guard let table = byName[name] else { return false }
            let uniqueBesidesKey = table.uniqueKeys.contains { $0.columns != table.primaryKey || $0.readsAnyColumn }
            let referenced = foreignKeys.contains { $0.parent == name }
            let strictReference = foreignKeys.contains { $0.child == name && ![.setNull, .setDefault].contains($0.onDelete) }
            return !uniqueBesidesKey && !referenced && !strictReference
        }
    }
}
#endif
