import Foundation
import SignalStore

/// The README's order model, on the package's `orders` table: the one model every benchmark
/// executable measures.
@Model(table: "orders")
public final class BenchOrder {
    public var id: Int64
    public var purchaseNum: Int
    public var status: String
    public var note: String?

    public init(id: Int64, purchaseNum: Int, status: String, note: String? = nil) {
        self.id = id
        self.purchaseNum = purchaseNum
        self.status = status
        self.note = note
    }
}

/// The package's `Migrations` folder, which creates the `orders` table.
public let packageMigrations = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Migrations")
