import CSQLite
import Foundation

/// Hands the store the journal entries that its own connection writes, as they are written, so
/// that a statement committed alone is published without reading its entries back.
///
/// The persistent capture triggers journal every writer's changes, this process's and any
/// other's. On the store's own connection, and only there, a `TEMP` trigger on the journal
/// passes each new entry to a SQL function, which keeps it here while ``isCollecting``. The
/// store collects around a statement that it runs in SQLite's autocommit mode (a model's
/// property set): reading the entries back would take a read transaction of its own after the
/// commit, with its file locks, which cost more than the statement's own work saves. Inside a
/// transaction the store still reads its entries back before `COMMIT`: a statement that fails
/// there is undone alone, and entries handed over by it would not be.
///
/// Collected entries are used only when they follow the last entry the store has seen (see
/// `CommitPublisher.read(_:collected:)`): if another connection committed in between, the store
/// reads the journal as before, so every entry is published once and in seq order.
final class OwnEntryCapture: @unchecked Sendable {
    // @unchecked: `isCollecting`, `entries`, `isComplete` and `lastNames` are touched only by
    // the thread that holds the store's writer lock (`StoreDatabase`'s lock): the SQL function
    // runs inside a statement of the writer connection, which is used only under that lock.
    // @exclusivity(unchecked) on the first three, which every set touches: under that lock no
    // access overlaps another, so the runtime's check of each access (some 40 instructions) is
    // left out.

    /// The SQL function the `TEMP` trigger calls.
    static let functionName = "signalstore_own_entry"

    /// Whether entries written now are kept. Off, the function returns at once. Setting it
    /// starts a new collection; the last one's entries (a statement's, a few) stay until then,
    /// so the next collection reuses their storage.
    @exclusivity(unchecked) var isCollecting = false {
        didSet {
            guard isCollecting else { return }
            entries.empty()
            isComplete = true
        }
    }

    @exclusivity(unchecked) private var entries: [Change] = []
    /// `false` once an entry could not be read as a ``Change``.
    @exclusivity(unchecked) private var isComplete = true
    /// The names of the last entry received, reused while the next entry's bytes are the same
    /// (a model's sets name one table, one operation and one column again and again): comparing
    /// a few bytes costs less than making a `String` of them.
    private var lastNames = RecentNames()

    private struct RecentNames {
        var table = ""
        var operation = ""
        var column = ""
    }

    /// The entries written since collecting started, in seq order, or `nil` if one of them
    /// could not be read (the store then reads the journal instead).
    var collected: [Change]? {
        isComplete ? entries : nil
    }

    /// Registers the function and creates the `TEMP` trigger on `connection`, the store's
    /// writer. Returns `nil` where that cannot be done (a read-only connection): the store
    /// then reads every commit's entries back.
    static func install(on connection: Connection) -> OwnEntryCapture? {
        let capture = OwnEntryCapture()
        let box = Unmanaged.passRetained(capture)
        let code = sqlite3_create_function_v2(
            connection.handle, functionName, 8, SQLITE_UTF8, box.toOpaque(),
            { context, count, arguments in
                guard let context, count == 8, let arguments else { return }
                let capture = Unmanaged<OwnEntryCapture>.fromOpaque(sqlite3_user_data(context)).takeUnretainedValue()
                capture.receive(arguments)
            },
            nil, nil,
            { box in box.map { Unmanaged<OwnEntryCapture>.fromOpaque($0).release() } }
        )
        // On failure SQLite has already called the destructor, which released the box.
        guard code == SQLITE_OK else { return nil }
        do {
            try connection.execute(triggerSQL)
        } catch {
            return nil
        }
        return capture
    }

    /// The `TEMP` trigger's name.
    private static let triggerName = "signalstore_own_entries"

    /// The `TEMP` trigger: it exists on this connection only, so other writers never call the
    /// function (which they do not have).
    private static var triggerSQL: String {
        let columns = Journal.selectColumns.split(separator: ",").map { "NEW.\($0.trimmingCharacters(in: .whitespaces))" }
        return """
            CREATE TEMP TRIGGER IF NOT EXISTS \(triggerName) AFTER INSERT ON main.\(Journal.changes)
            BEGIN SELECT \(functionName)(\(columns.joined(separator: ", "))); END
            """
    }

    /// Drops the `TEMP` trigger from `connection`, in its open transaction (a rollback brings
    /// it back); returns whether it was there. For a writer that writes journal entries itself
    /// in a transaction (``Journal/HandJournaling``): SQLite keeps a statement journal for
    /// every statement that fires a trigger, and nothing is collected inside a transaction.
    static func setAsideTrigger(on connection: Connection) throws -> Bool {
        guard try connection.scalar("SELECT count(*) FROM sqlite_temp_master WHERE type = 'trigger' AND name = ?", [.text(triggerName)]) == .integer(1) else { return false }
        try connection.execute("DROP TRIGGER temp.\(triggerName)")
        return true
    }

    /// Creates the `TEMP` trigger again after ``setAsideTrigger(on:)``, unless a rollback
    /// already did.
    static func restoreTrigger(on connection: Connection) throws {
        try connection.execute(triggerSQL)
    }

    /// Keeps the entry in `arguments` (the columns of `Journal.selectColumns`, in order).
    private func receive(_ arguments: UnsafeMutablePointer<OpaquePointer?>) {
        guard isCollecting else { return }
        var names = lastNames
        let change = Change(column: { index in
            guard let value = arguments[index] else { return .null }
            switch index {
            case 1: return Self.reusing(&names.table, value)       // table_name
            case 3: return Self.reusing(&names.operation, value)   // op
            case 4: return Self.reusing(&names.column, value)      // column_name
            default: return SQLiteValue(functionArgument: value)
            }
        })
        lastNames = names
        if let change { entries.append(change) } else { isComplete = false }
    }

    /// The text of `value`, as `last` if it has the same bytes (and as `last` from now on).
    private static func reusing(_ last: inout String, _ value: OpaquePointer) -> SQLiteValue {
        guard sqlite3_value_type(value) == SQLITE_TEXT, let bytes = sqlite3_value_text(value) else {
            return SQLiteValue(functionArgument: value)
        }
        let count = Int(sqlite3_value_bytes(value))
        let same = count > 0 && last.utf8.count == count
            && last.utf8.withContiguousStorageIfAvailable { $0.baseAddress.map { memcmp($0, bytes, count) == 0 } } == true
        if !same { last = String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self) }
        return .text(last)
    }
}
