/// A typed filter's condition as a value: comparisons of a column with a value, combined with
/// AND, OR and NOT. ``ModelFilter`` renders it to SQL here and nowhere else; a live result reads
/// which columns it depends on and the key value that routes commits to it.
indirect enum FilterExpression: Sendable, Equatable {
    /// How a column is compared with a value.
    enum Operator: String, Sendable {
        case same = "IS"
        case notSame = "IS NOT"
        case less = "<"
        case lessOrEqual = "<="
        case greater = ">"
        case greaterOrEqual = ">="
    }

    case comparison(column: String, Operator, SQLiteValue)
    case and(FilterExpression, FilterExpression)
    case or(FilterExpression, FilterExpression)
    case not(FilterExpression)
    /// The rows whose parent, through `link`, matches the condition (on the parent's columns).
    case parent(ParentJoin, FilterExpression)

    /// The condition as SQL, each value bound.
    var rendered: SQL {
        switch self {
        case .comparison(let column, let comparison, let value):
            "\(identifier: column) \(SQL(stringLiteral: comparison.rawValue)) \(value: value)"
        case .and(let lhs, let rhs):
            "(\(lhs.rendered)) AND (\(rhs.rendered))"
        case .or(let lhs, let rhs):
            "(\(lhs.rendered)) OR (\(rhs.rendered))"
        case .not(let operand):
            "NOT (\(operand.rendered))"
        case .parent(let link, let condition):
            link.membership(condition.rendered)
        }
    }

    /// Every column the condition reads.
    var columns: Set<String> {
        switch self {
        case .comparison(let column, _, _): [column]
        case .and(let lhs, let rhs), .or(let lhs, let rhs): lhs.columns.union(rhs.columns)
        case .not(let operand): operand.columns
        case .parent(let link, _): [link.keyColumn]
        }
    }

    /// The parents the condition reads through a link, with the parent's columns it reads there.
    var parentColumns: [ParentJoin: Set<String>] {
        switch self {
        case .comparison: [:]
        case .and(let lhs, let rhs), .or(let lhs, let rhs): lhs.parentColumns.merging(rhs.parentColumns) { $0.union($1) }
        case .not(let operand): operand.parentColumns
        case .parent(let link, let condition): [link: condition.columns]
        }
    }

    /// Whether a parent's condition itself reads through a link (a grandparent): a live result
    /// then runs its query again after each commit.
    var readsGrandparents: Bool {
        switch self {
        case .comparison: false
        case .and(let lhs, let rhs), .or(let lhs, let rhs): lhs.readsGrandparents || rhs.readsGrandparents
        case .not(let operand): operand.readsGrandparents
        case .parent(_, let condition): !condition.parentColumns.isEmpty
        }
    }

    /// A value the condition requires a column to hold: a `column IS integer` or `column IS
    /// text` that every matching row satisfies (the condition itself, or a term of its top-level
    /// AND). A live result with one is reached only by commits to rows that hold, or held, that
    /// key. An integer key is preferred: it needs no collation.
    var routingKey: ResultsKey? {
        switch self {
        case .comparison(let column, .same, let value): ResultsKey(column: column, equalTo: value)
        case .and(let lhs, let rhs):
            [lhs.routingKey, rhs.routingKey].compactMap { $0 }.min { !$0.isText && $1.isText }
        default: nil
        }
    }
}
