#if SIGNALSTORE_SYNC
import Foundation
@testable import SignalStoreSync
import SignalStoreTestSupport
import Testing

/// An upload's entries go to the server as one JSON text that PostgreSQL takes apart
/// (``ServerLog/uploadText(_:)``): whatever the rows hold must reach the other replica exactly.
@Suite("Sync: an upload sent as one JSON text arrives field for field", .enabled(if: TestServer.isEnabled, "needs PostgreSQL (SIGNALSTORE_TEST_POSTGRES_URL)"), .ownThread)
struct UploadTextTests {
    @Test("quotes, backslashes, JSON look-alikes, control characters, NUL, line breaks and emoji, in values, notes and keys, as inserts and updates")
    func anyTextArrives() async throws {
        let folder = TemporaryDirectory()
        let url = try TestServer.freshURL()
        let a = try Replica(folder, "a"), b = try Replica(folder, "b")
        let syncA = try a.client(url), syncB = try b.client(url)
        let texts = [
            "'\"quoted\"'", "'back\\slash \\\\ \\u0041'", "'{\"i\":7}'", "'[1, \"x\"]'", "'line' || char(10) || 'break' || char(13, 10)",
            "'tab' || char(9) || 'bell' || char(7) || 'unit' || char(31)", "'nul' || char(0) || 'inside'", "'🙂👍🏽 ünïcode'", "''", "NULL",
        ]
        let inserts = texts.enumerated().map { index, text in
            "INSERT INTO orders (id, purchase_num, status, note) VALUES (\(index + 1), \(index), coalesce(\(text), 'none'), \(text));"
        }
        try sqlite3(a.path, "BEGIN;" + inserts.joined() + "UPDATE orders SET note = status || note WHERE id % 2 = 0; COMMIT;")
        try await syncA.syncOnce()
        try await syncB.syncOnce()
        #expect(try b.contents() == a.contents())
        let digest = "SELECT group_concat(id || ':' || hex(status) || ':' || coalesce(hex(note), '-'), ' ') FROM orders"
        #expect(try b.store.readConnection { try $0.scalar(digest) } == a.store.readConnection { try $0.scalar(digest) })
    }
}
#endif
