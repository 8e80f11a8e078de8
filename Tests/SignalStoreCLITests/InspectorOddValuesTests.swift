// The inspector comes with the Inspector trait (`swift test --traits Sync,Inspector`).
#if SIGNALSTORE_INSPECTOR
import Foundation
import SignalStoreTestSupport
import Testing

/// Values another writer can leave in a table, as the inspector's pages and exports show them:
/// each one as it is, none hiding or rearranging what is around it, none run by a spreadsheet.
@Suite("inspect: odd values", .ownThread)
struct InspectorOddValuesTests {
    /// A table of the odd values, written by the `sqlite3` shell.
    private func oddDatabase(_ directory: TemporaryDirectory) throws -> String {
        let path = try exampleDatabase(in: directory)
        try sqlite3(path, """
            CREATE TABLE odd (id INTEGER PRIMARY KEY, v);
            INSERT INTO odd VALUES (1, X''), (2, char(0) || 'ab'), (3, ''), (4, NULL), (5, '=HYPERLINK("x")'),
                (6, char(0x202E) || 'txt.exe'), (7, '-5'), (8, -5);
            CREATE TABLE many (id INTEGER PRIMARY KEY);
            WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 1200) INSERT INTO many SELECT x FROM c;
            UPDATE orders SET note = char(0x202E) || 'txt.exe' WHERE id = 1;
            """)
        return path
    }

    @Test func anEmptyBlobNULTextAndBidirectionalControlsShowAsTheyAre() throws {
        let directory = TemporaryDirectory()
        let inspector = try RunningInspector(database: try oddDatabase(directory))
        defer { inspector.stop() }
        let page = try inspector.get("/tables/odd").body
        let cells = page.matches(#"<td[^>]*data-type="([a-z]+)""#)
        #expect(cells.filter { $0 == "null" }.count == 1, "only row 4 is NULL: \(cells)")
        #expect(cells.filter { $0 == "blob" }.count == 1, "X'' is an empty blob")
        #expect(page.contains("\\u{0}ab"), "text that starts with NUL shows it")
        #expect(page.contains("\\u{202e}txt.exe"), "a right-to-left override shows, and reverses nothing")
        #expect(!page.contains("\u{202E}") && !page.contains("\u{0}"))
        let whole = try inspector.get("/value/odd/2/v").body
        #expect(whole.contains("<p class=\"whole\" id=\"whole-value\">\\u{0}ab</p>"), "the value page shows the NUL too")
        let feed = try inspector.get("/feed").body
        #expect(feed.contains("\\u{202e}txt.exe") && !feed.contains("\u{202E}"), "the feed shows the override too")
    }

    @Test func theCSVExportTellsNULLFromEmptyTextAndRunsNoFormula() throws {
        let directory = TemporaryDirectory()
        let inspector = try RunningInspector(database: try oddDatabase(directory))
        defer { inspector.stop() }
        let lines = try inspector.get("/tables/odd/export?format=csv").body.dechunked.components(separatedBy: "\r\n")
        #expect(Array(lines.prefix(9)) == [
            "id,v", "1,", "2,\u{0}ab", "3,\"\"", "4,", "5,\"'=HYPERLINK(\"\"x\"\")\"", "6,\u{202E}txt.exe", "7,'-5", "8,-5",
        ])
    }

    @Test func thePagesCountWithSeparatorsSayOneEntryAndExplainA404() throws {
        let directory = TemporaryDirectory()
        let inspector = try RunningInspector(database: try oddDatabase(directory), writes: true)
        defer { inspector.stop() }
        #expect(try inspector.get("/").body.contains("<td class=\"num\">1,200</td>"))
        let first = try inspector.get("/tables/many").body
        #expect(!first.contains("First page") && first.contains("Next page"), "page 1 links no first page")
        let second = try inspector.get("/tables/many?after=i50&key=i50&n=51").body
        #expect(second.contains("id=\"first-page\""))
        #expect(try inspector.get("/revert?from=2&to=2").body.contains("Revert: write this entry"))
        let missing = try inspector.get("/nowhere")
        #expect(missing.status == 404 && missing.body.contains("There is no page at /nowhere"))
    }
}
#endif
