import SignalStore

/// A table's rules as `schema` and the inspector show them (what a constraint error points to).
extension TableRules {
    /// Every rule as one SQL-like line, in the order UNIQUE, CHECK, FOREIGN KEY.
    var lines: [String] {
        uniqueKeys.map(\.sql) + checks.map { "CHECK (\($0))" } + foreignKeys.map(\.sql)
    }
}

extension UniqueKey {
    /// Each term as written (`email`, `lower(handle)`).
    var termNames: [String] {
        terms.map { term in
            switch term {
            case .column(let name, _), .expression(let name, _): name
            }
        }
    }

    /// `UNIQUE (lower(handle)) WHERE (active = 1)`.
    var sql: String {
        "UNIQUE (\(termNames.joined(separator: ", ")))" + (condition.map { " WHERE (\($0))" } ?? "")
    }
}
