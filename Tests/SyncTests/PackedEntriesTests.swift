#if SIGNALSTORE_SYNC
import Foundation
import SignalStoreTestSupport
@testable import SignalStoreSync
import Testing

/// A download's entries come packed by the server into one text (issue 39: a debug build spent
/// a third of its CPU decoding 12 cells per entry). What PostgreSQL packs must read back field
/// for field, whatever the fields hold, and a text that is not a packed batch must fail clearly.
@Suite("Sync: a download packed by PostgreSQL reads back field for field", .enabled(if: TestServer.isEnabled))
struct PackedEntriesTests {
    /// Texts a length-prefixed field must carry: the format's own separators, digits, a lone
    /// `-` (the mark of NULL), multi-byte characters (lengths count bytes), line breaks.
    static let texts = ["", "-", "12:34", "3:abc", " - ", "é", "🙂👍🏽 ünïcode", "line\nbreak\r\n", "tab\tand 'quote' \"double\"", "{\"i\":7}"]

    @Test("every field, NULL or any text, in one batch packed by the real server")
    func fieldsReadBackExactly() throws {
        let url = try #require(TestServer.baseURL)
        var rows: [String] = []
        var expected: [RemoteEntry] = []
        for (index, text) in Self.texts.enumerated() {
            let position = Int64(index + 1), hlc = Int64.max - Int64(index)
            let column: String? = index % 2 == 0 ? nil : text
            let scope: String? = index % 3 == 0 ? nil : "scope " + text
            rows.append("(\(position), \(quoted("origin \(index % 2)")), \(index * 1000), \(hlc), \(quoted("tbl " + text)), \(quoted("[" + text + "]")), 'update', "
                        + "\(column.map(quoted) ?? "NULL"), \(quoted(text)), \(scope.map(quoted) ?? "NULL"), NULL, NULL, \(index % 4 == 0 ? "NULL" : quoted("role " + text)), "
                        + "\(index % 3 == 1 ? quoted("overlap " + text) : "NULL"), \(index % 2 == 0 ? "NULL" : String(index * 7)))")
            var entry = RemoteEntry(position: position, origin: "origin \(index % 2)", originSeq: Int64(index * 1000), clock: hlc,
                                        table: "tbl " + text, key: "[" + text + "]", operation: "update", column: column ?? "", payload: text)
            entry.scope = scope
            entry.uploadedBy = index % 4 == 0 ? nil : "role " + text
            entry.overlap = index % 3 == 1 ? "overlap " + text : nil
            entry.entry.resolves = index % 2 == 0 ? nil : Int64(index * 7)
            expected.append(entry)
        }
        let (packed, selected) = try Self.pack(rows, url: url)
        let (entries, through) = try PackedEntries.entries(packed, after: 0)
        #expect(entries == expected)
        #expect(through == Int64(Self.texts.count))
        #expect(selected == Self.texts.count)
    }

    @Test("a batch ends where its payloads, keys and histories pass the byte limit, the entry that passes it included")
    func batchEndsAtTheByteLimit() throws {
        let url = try #require(TestServer.baseURL)
        // Each entry: a 2-byte key and a 10-byte payload, 12 bytes; a limit of 30 keeps the
        // entries that start before byte 30: the first three (0, 12, 24).
        let rows = (1...5).map { "(\($0), 'o', \($0), \($0), 't', '[\($0)]', 'update', 'c', '0123456789', NULL, NULL, NULL, 'r', NULL, NULL::bigint)" }
        let (packed, selected) = try Self.pack(rows, url: url, byteLimit: 30)
        let (entries, through) = try PackedEntries.entries(packed, after: 0)
        #expect(entries.map(\.position) == [1, 2, 3])
        #expect(through == 3)
        #expect(selected == 5)
        let (first, _) = try Self.pack(rows, url: url, byteLimit: 1)
        #expect(try PackedEntries.entries(first, after: 0).entries.map(\.position) == [1], "the first entry always comes")
    }

    /// `rows` (SQL tuples of the log's columns) packed by the server, and how many it selected.
    static func pack(_ rows: [String], url: String, byteLimit: Int = PackedEntries.byteLimit) throws -> (packed: String, selected: Int) {
        let sql = "WITH log(position, origin, origin_seq, hlc, tbl, row_key, op, col, payload, scope, previous_scope, carried, uploaded_by, overlap, resolves) AS (VALUES "
            + rows.joined(separator: ", ") + ") "
            + PackedEntries.batchSQL(payload: "payload", rows: "SELECT * FROM log ORDER BY position", byteLimit: byteLimit)
        let result = try runProgram(URL(fileURLWithPath: ForeignTool.psql.path()), [url.components(separatedBy: "?").first! + "?sslmode=disable", "-v", "ON_ERROR_STOP=1", "-At", "-c", sql])
        try #require(result.status == 0, "psql: \(result.error)")
        // One row, `packed|count`, ended by a line break; the count holds no `|`.
        let line = result.output.dropLast()
        let bar = try #require(line.lastIndex(of: "|"))
        return (String(line[..<bar]), try #require(Int(line[line.index(after: bar)...])))
    }

    @Test("no rows is no entries, and the cursor stays")
    func empty() throws {
        #expect(try PackedEntries.entries(nil, after: 41) == ([], 41))
        #expect(try PackedEntries.entries("", after: 41) == ([], 41))
    }

    @Test("a text that is not a packed batch fails in one line that says so", arguments: [
        "1 2 3", "1 2 3 1:a", "x 2 3 1:a1:b1:c6:update--------", "1 2 3 1:a1:b1:c6:update-------", "1 2 3 1:a1:b1:c6:update--------junk",
        "1 2 3 9:a1:b1:c6:update--------", "1 2 3 -1:b1:c6:update--------", "99999999999999999999 2 3 1:a1:b1:c6:update--------",
    ])
    func malformed(text: String) {
        let error = #expect(throws: SyncError.self) { try PackedEntries.entries(text, after: 0) }
        #expect(error?.message.contains("batch of log entries this version cannot read") == true)
        #expect(error?.message.contains("\n") == false)
        #expect((try? PackedEntries.entries("1 2 3 1:a1:b1:c6:update--------", after: 0))?.entries.count == 1)
    }

    private func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
    }
}
#endif
