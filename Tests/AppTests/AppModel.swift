import Foundation
import SignalStore

// This target is compiled with the main actor as its default isolation, as new app targets are
// (`.defaultIsolation(MainActor.self)` in Package.swift): every declaration here without an
// explicit isolation is main-actor isolated, the tests and views included.

/// The README's model, as written there. It stays nonisolated: Swift infers no main actor for a
/// type that conforms to a `Sendable` protocol (SE-0466), and `@Model` conforms it to two.
@Model(table: "orders")
final class Order {
    var id: Int64
    var purchaseNum: Int
    var status: String
    var note: String?
    @Transient var isSelected = false

    init(id: Int64, purchaseNum: Int, status: String, note: String? = nil) {
        self.id = id
        self.purchaseNum = purchaseNum
        self.status = status
        self.note = note
    }
}

/// A model that is main-actor isolated explicitly (the same in any module).
@MainActor @Model(table: "customers")
final class Customer {
    var id: Int64
    var name: String
    var email: String?

    init(id: Int64, name: String, email: String? = nil) {
        self.id = id
        self.name = name
        self.email = email
    }
}
