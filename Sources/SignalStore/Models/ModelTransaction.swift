/// The open `store.transaction`: what to undo on rollback, what to announce after commit.
final class ModelTransaction {
    /// A column changed inside the transaction, with its value before the transaction.
    struct ColumnChange {
        let object: any PersistentModel
        let column: Int
        let original: SQLiteValue
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
    func rollbackLevel(_ registry: ModelRegistry) {
        for undo in levels.removeLast().reversed() {
            switch undo {
            case .column(let change):
                _ = change.object._$apply(column: change.column, value: change.original)
            case .insert(let object, let table, let rowID):
                registry.unregister(table: table, rowID: rowID)
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

    /// Every column change, in the order made (for notifications after commit).
    var columnChanges: [ColumnChange] {
        levels.flatMap { $0 }.compactMap { undo in
            if case .column(let change) = undo { return change }
            return nil
        }
    }
}
