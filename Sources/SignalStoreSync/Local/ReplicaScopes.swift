#if SIGNALSTORE_SYNC
import Foundation
import SignalStore

/// What a replica of a deployment with scopes holds: which tables sync by scope, and the
/// scopes of its role. Without scopes (or for a role that sees every scope) it holds every row.
struct ReplicaScopes: Sendable, Equatable {
    /// Each scoped table's scope column, as the server's `signalstore sync setup` recorded it.
    var columns: [String: String] = [:]
    /// The scopes the role holds; `nil` for every scope.
    var held: Set<String>?

    /// Whether `remote` takes its row out of this replica: it moved the row from a scope held
    /// here to one that is not.
    func leaves(_ remote: RemoteEntry) -> Bool {
        guard let held, let previous = remote.previousScope, let scope = remote.scope else { return false }
        return held.contains(previous) && !held.contains(scope)
    }

    /// The scope of a row's value of the scope column, as the server spells it (the value's
    /// text: `7`, `red`).
    static func scope(of value: SQLiteValue) -> String? {
        switch value {
        case .null: nil
        case .integer(let number): String(number)
        case .real(let number): number.description
        case .text(let text): text
        case .blob(let bytes): bytes.base64EncodedString()
        }
    }
}
#endif
