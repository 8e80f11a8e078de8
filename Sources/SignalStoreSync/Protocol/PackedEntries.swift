#if SIGNALSTORE_SYNC
import Foundation

/// A download's entries packed by the server into one text, and read back here.
///
/// Sent as rows of twelve cells, a batch of 5,000 entries was 60,000 cells for postgres-nio to
/// frame, slice and decode one by one through its generic decoding, which in the debug build
/// `swift run` gives was a third of a replica's CPU while a big transaction went by. Packed,
/// a batch is one cell, read here byte by byte.
///
/// Each entry is `position seq hlc ` (decimal integers, each followed by a space), then the
/// fields origin, table, key, operation, column, payload, scope, previous scope, carried
/// history, the role that uploaded it, the concurrent edit it lists and the one it resolves, each as `LENGTH:TEXT` (its length in UTF-8 bytes, a colon, the text) or `-` for
/// SQL `NULL`. Lengths make any text safe, whatever characters it holds.
enum PackedEntries {
    /// The SQL expression that packs one row of the log into its text, `payload` standing for
    /// the payload (an expression of the log's columns).
    static func entrySQL(payload: String) -> String {
        let fields = ["origin", "tbl", "row_key", "op", "col", payload, "scope", "previous_scope", "carried", "uploaded_by", "overlap", "resolves::text"]
            .map { "coalesce(octet_length(\($0)) || ':' || \($0), '-')" }
        return "position || ' ' || origin_seq || ' ' || hlc || ' ' || " + fields.joined(separator: " || ")
    }

    /// How many bytes of payloads, keys and histories one packed batch holds at most, besides
    /// its last entry. PostgreSQL's text values stop at 1 GB: 5,000 entries of rows with large
    /// blobs would not fit in one, where rows sent one by one did; a batch that reaches this
    /// size ends there and the rest comes in the next.
    static let byteLimit = 32 << 20

    /// The SQL that packs the rows `rows` selects (the log's columns, in log order) into one
    /// text (`NULL` when there are none), as many as fit in `byteLimit` (always the first);
    /// how many rows `rows` selected; and `alongside`'s value, when there is one (a scalar
    /// expression, read in the same snapshot).
    static func batchSQL(payload: String, rows: String, alongside: String? = nil, byteLimit: Int = byteLimit) -> String {
        let size = "coalesce(octet_length(\(payload)), 0) + coalesce(octet_length(carried), 0) + octet_length(row_key)"
        return """
            SELECT string_agg(\(entrySQL(payload: payload)), '' ORDER BY position) FILTER (WHERE before < \(byteLimit)), count(*)\(alongside.map { ", \($0)" } ?? "")
            FROM (SELECT *, sum(\(size)) OVER (ORDER BY position) - (\(size)) AS before FROM (\(rows)) AS selected) AS batch
            """
    }

    /// The entries of a packed batch, in order, and the position of the last (`position` when
    /// there are none).
    /// - Throws: ``SyncError/server`` when the text is not a packed batch.
    static func entries(_ packed: String?, after position: Int64) throws -> (entries: [RemoteEntry], through: Int64) {
        guard var text = packed, !text.isEmpty else { return ([], position) }
        let read: [RemoteEntry]? = text.withUTF8 { bytes in
            var reader = Reader(bytes: bytes)
            return reader.entries()
        }
        guard let entries = read else {
            throw SyncError(.server, "the server sent a batch of log entries this version cannot read; check that the server's log was not changed by hand")
        }
        return (entries, entries.last?.position ?? position)
    }

    /// Walks a packed batch's bytes.
    private struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0
        /// The last origin read, by its bytes: a batch holds few origins, each many times.
        var lastOrigin: (bytes: Range<Int>, text: String)?

        /// Every entry, or `nil` at the first byte out of place.
        mutating func entries() -> [RemoteEntry]? {
            var entries: [RemoteEntry] = []
            while index < bytes.count {
                guard let position = integer(), let seq = integer(), let hlc = integer(),
                      let origin = originField(), let table = field(), let key = field(), let op = field(),
                      let column = field(), let payload = field(), let scope = field(), let previousScope = field(),
                      let carried = field(), let uploadedBy = field(), let overlap = field(), let resolves = field()
                else { return nil }
                guard let table, let key, let op else { return nil }
                var entry = RemoteEntry(position: position, origin: origin, originSeq: seq, clock: hlc, table: table, key: key,
                                        operation: op, column: column ?? "", payload: payload ?? "")
                entry.scope = scope
                entry.previousScope = previousScope
                entry.uploadedBy = uploadedBy
                entry.overlap = overlap
                entry.entry.resolves = resolves.flatMap { Int64($0) }
                if let carried {
                    if let history = RemoteEntry.history(carried, of: table, key) { entry.carried = history } else {
                        entry.unreadable = entry.unreadable ?? "its carried history is not a JSON array of entries"
                    }
                }
                entries.append(entry)
            }
            return entries
        }

        /// A decimal integer and the space after it.
        mutating func integer() -> Int64? {
            guard let magnitude = digits(until: UInt8(ascii: " ")), magnitude <= UInt64(Int64.max) else { return nil }
            return Int64(magnitude)
        }

        /// The digits from here up to `end` (consumed too), as a number.
        mutating func digits(until end: UInt8) -> UInt64? {
            let start = index
            var value: UInt64 = 0
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                if byte == end { return index - 1 > start ? value : nil }
                let digit = byte &- UInt8(ascii: "0")
                guard digit < 10, index - start <= 19 else { return nil }
                value = value * 10 + UInt64(digit)
            }
            return nil
        }

        /// A field's bytes: `.some(nil)` for `-` (SQL `NULL`), `nil` when malformed.
        mutating func fieldBytes() -> Range<Int>?? {
            guard index < bytes.count else { return nil }
            if bytes[index] == UInt8(ascii: "-") {
                index += 1
                return .some(nil)
            }
            guard let length = digits(until: UInt8(ascii: ":")), length <= UInt64(bytes.count - index) else { return nil }
            let range = index..<(index + Int(length))
            index = range.upperBound
            return .some(range)
        }

        /// A field's text: `.some(nil)` for SQL `NULL`, `nil` when malformed.
        mutating func field() -> String?? {
            guard let range = fieldBytes() else { return nil }
            return .some(range.map { String(decoding: UnsafeBufferPointer(rebasing: bytes[$0]), as: UTF8.self) })
        }

        /// The origin field, made into text once per run of entries from one origin.
        mutating func originField() -> String? {
            guard case let range?? = fieldBytes() else { return nil }
            if let last = lastOrigin, last.bytes.count == range.count,
               memcmp(bytes.baseAddress! + last.bytes.lowerBound, bytes.baseAddress! + range.lowerBound, range.count) == 0 {
                return last.text
            }
            let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
            lastOrigin = (range, text)
            return text
        }
    }
}
#endif
