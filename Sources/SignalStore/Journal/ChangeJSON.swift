import Foundation

/// One schema for a change-feed entry as JSON, written by `signalstore changes --json` and
/// `watch --json`, read back as a fixture by SignalStoreTesting's `TestStore`, and written
/// (without timestamps, seqs relative) to its golden feed files:
///
/// ```json
/// {"type":"change","seq":7,"table":"orders","id":42,"operation":"update","column":"status","old":"open","new":"paid","timestamp":"2026-11-24T10:00:00.000Z"}
/// {"type":"change","seq":8,"table":"orders","id":43,"operation":"insert","row":{"id":43,"purchase_num":1,"status":"open"},"timestamp":"…"}
/// ```
/// - `id` is the rowid; `row` (inserts and deletes) is the whole row, columns in schema order;
///   `old` and `new` (updates) are the column's values.
/// - Values are JSON `null`, numbers (a real always has a fraction or exponent) and strings; a
///   blob is `{"$blob": "0aff"}`, an infinite real `{"$real": "Inf"}` or `"-Inf"`.
package enum ChangeJSON {
    /// The JSON object of one entry.
    /// - Parameters:
    ///   - columnOrder: The table's columns in schema order (a row's other columns follow, by name).
    ///   - seq: The seq to write, if not the entry's own (golden files write seqs relative to
    ///     the test's start).
    ///   - includingTimestamp: Whether to write the timestamp (golden files leave it out).
    package static func encode(_ change: Change, columnOrder: [String], seq: Int64? = nil, includingTimestamp: Bool = true) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("type", .string("change")), ("seq", .integer(seq ?? change.seq)), ("table", .string(change.table)),
            ("id", .integer(change.rowID)), ("operation", .string(change.operation.rawValue)),
        ]
        switch change.operation {
        case .update:
            members += [
                ("column", .string(change.column ?? "")),
                ("old", JSONValue(change.oldValue ?? .null)),
                ("new", JSONValue(change.newValue ?? .null)),
            ]
        case .insert, .delete:
            members.append(("row", JSONValue(row: ordered(change.row ?? [:], columnOrder))))
        }
        if includingTimestamp {
            members.append(("timestamp", .string(change.timestamp.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true)))))
        }
        return .object(members)
    }

    /// The entries of a document in this schema: a JSON array with one entry per line (what
    /// `signalstore changes --json` prints), or JSON lines (what `--follow --json` prints).
    /// Timestamps may be missing; entries keep their order.
    /// - Throws: ``DecodingError`` naming the line that is not an entry.
    package static func decode(_ document: String) throws(DecodingError) -> [FeedEntry] {
        var entries: [FeedEntry] = []
        for (offset, raw) in document.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix(",") { line.removeFirst() }
            if line.hasSuffix(",") { line.removeLast() }
            guard !line.isEmpty, line != "[", line != "]", line != "[]" else { continue }
            guard let entry = FeedEntry(json: line) else {
                throw DecodingError(line: offset + 1, text: String(line.prefix(80)))
            }
            entries.append(entry)
        }
        return entries
    }

    /// A line that is not a change entry.
    package struct DecodingError: Error, CustomStringConvertible {
        /// The line's number, from 1.
        package let line: Int
        /// The start of the line.
        package let text: String

        package var description: String {
            "line \(line) is not a change entry of `signalstore changes --json`: \(text)"
        }
    }

    /// The row's columns in schema order; columns the schema does not know (dropped since) last,
    /// by name.
    package static func ordered(_ row: [String: SQLiteValue], _ columnOrder: [String]) -> [(String, SQLiteValue)] {
        let known = columnOrder.compactMap { name in row[name].map { (name, $0) } }
        let unknown = row.filter { !columnOrder.contains($0.key) }.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        return known + unknown
    }
}

/// One entry read from a document in the ``ChangeJSON`` schema.
package struct FeedEntry: Sendable, Equatable {
    package let seq: Int64?
    package let table: String
    /// The rowid.
    package let rowID: Int64
    package let operation: Change.Operation
    /// An update's column.
    package let column: String?
    /// An update's old and new value.
    package let oldValue: SQLiteValue?
    package let newValue: SQLiteValue?
    /// An insert's or delete's whole row.
    package let row: [String: SQLiteValue]?

    init?(json: String) {
        guard let object = RowJSON.decodeEntry(json),
              object["type"] == nil || object["type"] == .text("change"),
              case .text(let table)? = object["table"], case .integer(let rowID)? = object["id"],
              case .text(let name)? = object["operation"], let operation = Change.Operation(rawValue: name)
        else { return nil }
        seq = object["seq"]?.integerValue
        self.table = table
        self.rowID = rowID
        self.operation = operation
        column = object["column"]?.textValue
        oldValue = object["old"]
        newValue = object["new"]
        row = object["row"]?.textValue.flatMap(RowJSON.decode)
        if operation == .update ? column == nil : row == nil { return nil }
    }
}
