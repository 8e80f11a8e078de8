/// `name` as a quoted SQL identifier: `orders` → `"orders"`, `a"b` → `"a""b"`.
///
/// The one way SignalStore and its CLI splice a name into SQL. Only names read from the schema
/// (or declared by a model) are spliced; values are always bound.
package func quotedIdentifier(_ name: String) -> String {
    guard name.utf8.contains(UInt8(ascii: "\"")) else { return "\"" + name + "\"" }
    return "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
}

/// `text` as a SQL string literal: `it's` → `'it''s'`.
package func quotedLiteral(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
}
