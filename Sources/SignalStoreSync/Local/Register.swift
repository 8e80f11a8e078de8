#if SIGNALSTORE_SYNC
import SignalStore

/// What the stamps table keeps per row: the latest insert's stamp and row, the latest
/// delete's stamp, and per column the latest update's stamp and value. Each is a "keep the
/// maximum" register, so the order in which entries arrive does not change them, and the row
/// is a function of them (see ``RemoteApplier``).
///
/// Each register is kept twice: as this replica has it (its own changes not yet uploaded
/// included) and as the server's log has it (the *server state*, `base_*`). The two differ
/// only while the register's latest change is this replica's own and not yet uploaded: such
/// a *pending* change can still lose to a constraint, and then the register goes back to
/// the server state (see ``ConflictResolver``).
enum Register: Hashable {
    case insert, delete, column(String)

    var name: String {
        switch self {
        case .insert: "#insert"
        case .delete: "#delete"
        case .column(let name): name
        }
    }

    init(name: String) {
        switch name {
        case "#insert": self = .insert
        case "#delete": self = .delete
        default: self = .column(name)
        }
    }

    /// The register a change of `operation` raises.
    init(_ operation: Change.Operation, column: String?) {
        switch operation {
        case .insert: self = .insert
        case .delete: self = .delete
        case .update: self = .column(column ?? "")
        }
    }

    /// The operation of the changes that raise it.
    var operation: Change.Operation {
        switch self {
        case .insert: .insert
        case .delete: .delete
        case .column: .update
        }
    }

    /// The column of an update register.
    var column: String? {
        if case .column(let name) = self { name } else { nil }
    }
}

struct StoredStamp: Equatable {
    let stamp: Stamp
    /// An update's value (``SyncValueCoding/encode(_:)``), an insert's row
    /// (``SyncValueCoding/encodeRow(_:)``; `nil` in files synced before rows were kept).
    let value: String?
}

/// A register as this replica has it and as the server's log has it.
struct RegisterState {
    let current: StoredStamp
    let server: StoredStamp?

    /// Whether the latest change is `origin`'s own and not yet uploaded.
    func isPending(origin: String) -> Bool {
        current.stamp.origin == origin && current != server
    }
}

/// The rule of incarnations, on a row's registers by name (``StampTable/states(_:_:_:)``).
extension Dictionary where Key == Register, Value == RegisterState {
    /// Whether a delete or a column change stamped `stamp` acts on the row: its latest insert
    /// is its latest incarnation, and a change older than that insert no longer acts, as on
    /// every replica that applies them after it (a column holds the insert's value unless its
    /// update is later; a row inserted again after a delete is there).
    ///
    /// An insert still pending here (`origin`'s own) is applied again after the change, so the
    /// latest insert the log holds decides: C deleted customer 10, A (whose delete of it was
    /// older) inserted it again, then C inserted it again. Where the log puts C's delete, after
    /// A's insert, it deletes nothing; applied again here when C's row was set aside, it set the
    /// orders' references to 10 to `NULL` and freed the row's email for C's other pending rows
    /// (chaos seed 71 with faults).
    func outlivesLatestInsert(_ stamp: Stamp, pendingHere origin: String) -> Bool {
        guard let insert = self[.insert] else { return true }
        let latest = insert.isPending(origin: origin) ? insert.server?.stamp : insert.current.stamp
        return latest.map { stamp > $0 } ?? true
    }
}

/// A row's registers other than its insert's: what decides how an insert lands.
struct LaterRegisters {
    /// The latest delete.
    var delete: StoredStamp?
    /// Per column, the latest update and its value.
    var columns: [String: StoredStamp] = [:]
}
#endif
