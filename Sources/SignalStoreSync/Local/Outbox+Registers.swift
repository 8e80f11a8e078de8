#if SIGNALSTORE_SYNC
import SignalStore

/// A register's pending changes in the outbox (``Register``): what the conflict resolver reads
/// and takes out when they lose.
extension Outbox {
    /// The seq of the latest pending change of `register` of a row, or `nil` for none.
    static func latestPendingSeq(_ register: Register, _ table: String, _ key: String, _ connection: Connection) throws -> Int64? {
        try connection.scalar(
            "SELECT max(seq) FROM \(Self.table) WHERE tbl = ? AND row_key = ? AND op = ? AND coalesce(col, '') = ?",
            [.text(table), .text(key), .text(register.operation.rawValue), .text(register.column ?? "")]
        )?.integerValue
    }

    /// One pending change of a register: its outbox seq, its stamp and its encoded value.
    typealias RegisterChange = (seq: Int64, stamp: HybridLogicalClock, payload: String?)

    /// The row's pending changes of `register` before its latest one, the latest first.
    static func earlierPending(_ register: Register, _ table: String, _ key: String, _ connection: Connection) throws -> [RegisterChange] {
        try connection.statement(
            "SELECT seq, hlc, payload FROM \(Self.table) WHERE tbl = ? AND row_key = ? AND op = ? AND coalesce(col, '') = ? ORDER BY seq DESC LIMIT -1 OFFSET 1"
        ).rows([.text(table), .text(key), .text(register.operation.rawValue), .text(register.column ?? "")]).compactMap { row in
            guard case .integer(let seq) = row[0], case .integer(let hlc) = row[1] else { return nil }
            return (seq, HybridLogicalClock(rawValue: hlc), row[2].textValue)
        }
    }

    /// Takes a register's pending changes after outbox seq `seq` out of the outbox: they lost.
    static func remove(_ register: Register, _ table: String, _ key: String, after seq: Int64, _ connection: Connection) throws {
        try connection.statement("DELETE FROM \(Self.table) WHERE tbl = ? AND row_key = ? AND op = ? AND coalesce(col, '') = ? AND seq > ?")
            .run([.text(table), .text(key), .text(register.operation.rawValue), .text(register.column ?? ""), .integer(seq)])
    }

    /// Takes a register's pending changes out of the outbox: they lost, and are never uploaded.
    static func remove(_ register: Register, _ table: String, _ key: String, _ connection: Connection) throws {
        try connection.statement("DELETE FROM \(Self.table) WHERE tbl = ? AND row_key = ? AND op = ? AND coalesce(col, '') = ?")
            .run([.text(table), .text(key), .text(register.operation.rawValue), .text(register.column ?? "")])
    }
}
#endif
