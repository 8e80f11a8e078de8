/// SQL written as a string literal, where an interpolated name is quoted as an identifier and
/// an interpolated value is bound as an argument, never spliced into the text.
///
/// ```swift
/// let sql: SQL = "SELECT \(identifiers: columns) FROM \(identifier: table) WHERE rowid = \(value: .integer(rowID))"
/// let rows = try connection.rows(sql)   // the text has `?` where the value goes
/// ```
/// There is no way to interpolate a plain `String`: a name says `identifier:`, a value
/// `value:`, and a fragment is itself `SQL`. This is the pattern the inspector's `HTML` follows
/// for markup; ``quotedIdentifier(_:)`` stays for DDL generated as text (trigger bodies, which
/// cannot bind).
package struct SQL: ExpressibleByStringInterpolation, Sendable, Equatable {
    /// The statement's text, with `?` for each argument.
    package private(set) var text: String
    /// The values bound to the `?`s, in order.
    package private(set) var arguments: [SQLiteValue]

    package init(stringLiteral value: String) {
        text = value
        arguments = []
    }

    package init(stringInterpolation: Interpolation) {
        text = stringInterpolation.text
        arguments = stringInterpolation.arguments
    }

    /// The fragments one after another, `separator` between them (`", "`, `" AND "`).
    package init(joining fragments: some Sequence<SQL>, separator: String) {
        text = ""
        arguments = []
        for (index, fragment) in fragments.enumerated() {
            if index > 0 { text += separator }
            text += fragment.text
            arguments += fragment.arguments
        }
    }

    /// Builds SQL: literals as written, names quoted, values bound, fragments kept.
    package struct Interpolation: StringInterpolationProtocol {
        fileprivate var text = ""
        fileprivate var arguments: [SQLiteValue] = []

        package init(literalCapacity: Int, interpolationCount: Int) {
            text.reserveCapacity(literalCapacity + 16 * interpolationCount)
        }

        package mutating func appendLiteral(_ literal: String) {
            text += literal
        }

        /// A table, column or trigger name, quoted (`"orders"`, `"a""b"`).
        package mutating func appendInterpolation(identifier name: String) {
            text += quotedIdentifier(name)
        }

        /// Names, each quoted, separated by commas.
        package mutating func appendInterpolation(identifiers names: [String]) {
            text += names.map(quotedIdentifier).joined(separator: ", ")
        }

        /// A value, bound: `?` in the text.
        package mutating func appendInterpolation(value: SQLiteValue) {
            text += "?"
            arguments.append(value)
        }

        /// Values, each bound, separated by commas.
        package mutating func appendInterpolation(values: [SQLiteValue]) {
            text += Array(repeating: "?", count: values.count).joined(separator: ", ")
            arguments += values
        }

        /// A fragment, with its arguments.
        package mutating func appendInterpolation(_ fragment: SQL) {
            text += fragment.text
            arguments += fragment.arguments
        }

        /// A number (a `LIMIT`, an index), written as digits.
        package mutating func appendInterpolation(_ number: Int) {
            text += String(number)
        }
    }
}

extension Connection {
    /// The rows `sql` reads, its arguments bound (the statement is prepared once and cached).
    package func rows(_ sql: SQL) throws(SQLiteError) -> [[SQLiteValue]] {
        try statement(sql.text).rows(sql.arguments)
    }

    /// The first column of the first row `sql` reads; `nil` when there is none.
    package func scalar(_ sql: SQL) throws(SQLiteError) -> SQLiteValue? {
        try scalar(sql.text, sql.arguments)
    }

    /// Runs `sql` to completion, its arguments bound.
    package func run(_ sql: SQL) throws(SQLiteError) {
        try statement(sql.text).run(sql.arguments)
    }
}
