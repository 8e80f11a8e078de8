import SignalStore

// "History and Undo", as printed there.

func printHistory(of order: Order, in store: Store) throws {
    for change in try store.history(of: order) {
        print(change)   // #1 orders[42] insert {…}, then #7 orders[42] update purchase_num: 1 → 3, …
    }
}

/// Pays for an order as one undoable action: the entries it wrote, or nil if it changed nothing.
func pay(_ order: Order, in store: Store) throws -> ClosedRange<Int64>? {
    let before = try store.lastChangeSeq
    try store.transaction {
        order.status = "paid"
        order.purchaseNum += 1
    }
    let after = try store.lastChangeSeq
    return after > before ? (before + 1)...after : nil
}

/// Undoes an action; returns what the undo wrote, which is what a redo reverts.
func undo(_ action: ClosedRange<Int64>, in store: Store) throws -> ClosedRange<Int64>? {
    let written = try store.revert(action)
    guard let first = written.first, let last = written.last else { return nil }
    return first.seq...last.seq
}

#if canImport(Darwin)
import Foundation

/// Registers an action with the window's undo manager: undo reverts it, redo reverts the undo.
@MainActor func registerUndo(of action: ClosedRange<Int64>, in store: Store, with undoManager: UndoManager) {
    undoManager.registerUndo(withTarget: store) { store in
        MainActor.assumeIsolated {
            if let undone = try? undo(action, in: store) { registerUndo(of: undone, in: store, with: undoManager) }
        }
    }
}
#endif
