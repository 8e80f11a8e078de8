/// Several reads that see the database in one state: see ``Store/read(_:)``.
///
/// Valid only inside the `read` body that received it; do not keep it. It is not `Sendable`:
/// its reads run on the thread that called `read`.
public struct StoreSnapshot {
    let store: Store
    let connection: Connection
    /// The journal's highest seq in this snapshot, read on first need (in the same read
    /// transaction, so it is the snapshot's).
    let seq: SnapshotSeq

    init(store: Store, connection: Connection, seq: SnapshotSeq) {
        self.store = store
        self.connection = connection
        self.seq = seq
    }

    /// The object whose primary key is `id` in this snapshot (the live instance if there is
    /// one); `nil` if the snapshot has no such row.
    public func find<Model: PersistentModel>(_ type: Model.Type, id: some SQLiteValueConvertible) throws(StoreError) -> Model? {
        try all(Model.self, where: ModelSQL.of(Model.self).primaryKeyCondition, arguments: [id.sqliteValue]).first
    }

    /// The objects matching `predicate` in this snapshot, in order; live instances where they
    /// exist. See ``Store/all(_:where:arguments:orderBy:)``.
    public func all<Model: PersistentModel>(
        _ type: Model.Type,
        where predicate: String? = nil,
        arguments: [SQLiteValue] = [],
        orderBy: String? = nil
    ) throws(StoreError) -> [Model] {
        do {
            // A row that changed since this snapshot began is loaded on the writer: another
            // reader could be the one this snapshot holds, if the pool has only one.
            return try store.fetch(Model.self, where: predicate, arguments: arguments, orderBy: orderBy, connection, seq)
                .resolved { rowID in try store.reloadOnWriter(Model.self, rowID: rowID) }
        } catch {
            throw StoreError(error)
        }
    }

    /// The number of rows matching `predicate` in `Model`'s table in this snapshot.
    public func count<Model: PersistentModel>(_ type: Model.Type, where predicate: String? = nil, arguments: [SQLiteValue] = []) throws(StoreError) -> Int {
        do {
            var sql: SQL = "SELECT count(*) FROM \(identifier: Model._$table)"
            if let predicate { sql = "\(sql) WHERE \(SQL(stringLiteral: predicate))" }
            guard let count = try connection.scalar(sql.text, arguments)?.integerValue else { return 0 }
            return Int(count)
        } catch {
            throw StoreError(error)
        }
    }
}

/// A snapshot's journal position, read once on first need.
final class SnapshotSeq {
    private let read: () throws -> Int64
    private var value: Int64?

    init(_ read: @escaping () throws -> Int64) {
        self.read = read
    }

    /// The highest journal seq the snapshot includes.
    func get() throws -> Int64 {
        if let value { return value }
        let read = try read()
        value = read
        return read
    }
}
