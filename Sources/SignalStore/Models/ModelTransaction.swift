/// The open `store.transaction`: what to undo on rollback, and the objects whose uncommitted
/// values it holds.
final class ModelTransaction {
    /// A column set inside the transaction, with the uncommitted value it had before (`nil`:
    /// none, the committed value showed).
    struct ColumnChange {
        let object: any PersistentModel
        let column: Int
        let previous: SQLiteValue?
    }

    private enum Undo {
        case column(ColumnChange)
        case insert(any PersistentModel, table: String, rowID: Int64)
    }

    /// One list per nesting level (outermost first).
    private var levels: [[Undo]] = [[]]
    /// The first failure of a write made without `try` (a property set) inside the transaction.
    var failure: StoreError?

    var depth: Int { levels.count }

    func beginLevel() {
        levels.append([])
    }

    /// Keeps the innermost level's changes in the enclosing level.
    func commitLevel() {
        let inner = levels.removeLast()
        levels[levels.count - 1] += inner
    }

    /// Undoes the innermost level, newest first.
    func rollbackLevel(_ registry: Locked<ModelRegistry>) {
        for undo in levels.removeLast().reversed() {
            switch undo {
            case .column(let change):
                change.object._$model.setUncommitted(column: change.column, to: change.previous)
            case .insert(let object, let table, let rowID):
                registry.withLock { $0.unregister(table: table, rowID: rowID) }
                object._$model.link = .unmanaged
            }
        }
        if levels.isEmpty { levels = [[]] }
    }

    func recordColumn(_ change: ColumnChange) {
        levels[levels.count - 1].append(.column(change))
    }

    func recordInsert(_ object: any PersistentModel, table: String, rowID: Int64) {
        levels[levels.count - 1].append(.insert(object, table: table, rowID: rowID))
    }

    /// Forgets the uncommitted values of every object the transaction set, once its commit's
    /// journal entries updated their stored values (or it rolled back).
    func clearUncommittedValues() {
        for case .column(let change) in levels.joined() {
            change.object._$model.clearUncommitted()
        }
    }
}
