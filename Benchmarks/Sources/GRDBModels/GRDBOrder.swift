import GRDB

/// The `orders` row as a GRDB record: the peer's side of every harness that compares reads.
public struct GRDBOrder: FetchableRecord, TableRecord, Decodable, Sendable {
    public static let databaseTableName = "orders"
    public var id: Int64
    public var purchase_num: Int
    public var status: String
    public var note: String?
}
