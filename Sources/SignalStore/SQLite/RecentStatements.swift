/// A few prepared statements by their SQL, the most used first. Finding one compares the SQL
/// with each kept one's, which for the same string is one comparison of its storage and costs
/// far less than hashing it; a statement found moves one place toward the front, so the few a
/// connection runs again and again stay at the front.
struct RecentStatements {
    private var kept: [(sql: String, statement: Statement)] = []
    /// How many it keeps: a new one past that pushes the last out.
    let limit: Int

    init(limit: Int) {
        self.limit = limit
    }

    /// The statement kept for `sql`, if any.
    mutating func statement(for sql: String) -> Statement? {
        guard let index = kept.firstIndex(where: { $0.sql == sql }) else { return nil }
        let statement = kept[index].statement
        if index > 0 { kept.swapAt(index, index - 1) }
        return statement
    }

    /// Keeps `statement` for `sql`, first.
    mutating func keep(_ statement: Statement, for sql: String) {
        if kept.count == limit { kept.removeLast() }
        kept.insert((sql, statement), at: 0)
    }

    /// Lets every statement go (they are finalized when no one else holds them).
    mutating func removeAll() {
        kept.removeAll()
    }
}
