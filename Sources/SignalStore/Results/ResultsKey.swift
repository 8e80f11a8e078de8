/// The key every member of a live result holds: `column IS value`, an integer (the children of
/// one parent, `\.customerID == 7`). Commits are routed by it: a commit reaches the result only
/// when a row it changed holds, or held, this key.
struct ResultsKey: Sendable, Hashable {
    /// The column, as the model names it.
    let column: String
    let value: Int64

    /// The integer `stored` equals under SQL's `IS` with an integer, or `nil` when it can equal
    /// none: an INTEGER, a REAL with no fraction, or TEXT of the digits a TEXT column compares an
    /// integer as (trailing spaces allowed, which an `RTRIM` collation ignores). A superset
    /// is safe here: the result decides membership by a query.
    static func integer(matching stored: SQLiteValue) -> Int64? {
        switch stored {
        case .integer(let value):
            return value
        case .real(let value):
            return Int64(exactly: value)
        case .text(let text):
            var digits = Substring(text)
            while digits.last == " " { digits.removeLast() }
            guard let value = Int64(digits), String(value) == digits else { return nil }
            return value
        case .null, .blob:
            return nil
        }
    }
}
