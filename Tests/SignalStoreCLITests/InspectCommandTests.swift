// The inspector comes with the Inspector trait (`swift test --traits Sync,Inspector`, as .ci/run
// does); its browser tests are in Tests/Browser.
#if SIGNALSTORE_INSPECTOR
import Foundation
import SignalStore
import SignalStoreTestSupport
import Testing

/// `signalstore inspect` over HTTP, as the built binary: what a browser cannot easily show
/// (a forged `Host`, a forged form, paging through every row exactly once, a busy port).
@Suite("inspect command")
struct InspectCommandTests {
    @Test func aRequestNeedsTheTokenAndTheLoopbackHost() throws {
        let directory = TemporaryDirectory()
        let inspector = try RunningInspector(database: try exampleDatabase(in: directory))
        defer { inspector.stop() }
        #expect(try inspector.get("/", cookie: false).status == 403)
        let redirect = try inspector.get("/?token=\(inspector.token)", cookie: false)
        #expect(redirect.status == 303 && redirect.header("location") == "/")
        let cookie = redirect.header("set-cookie")?.split(separator: "; ").map(String.init) ?? []
        #expect(cookie.first == "signalstore_inspector_\(inspector.port)=\(inspector.token)")
        #expect(Set(cookie.dropFirst()) == ["HttpOnly", "SameSite=Strict", "Path=/"])
        #expect(try inspector.get("/").status == 200)
        // A page elsewhere that points its own DNS name at 127.0.0.1 sends its own Host.
        #expect(try inspector.get("/", host: "attacker.example:\(inspector.port)").status == 421)
        let page = try inspector.get("/")
        #expect(page.header("content-security-policy")?.contains("script-src 'self'") == true)
        #expect(page.header("referrer-policy") == "no-referrer")
    }

    @Test func keysetPagesVisitEveryRowOnceInEverySortOrder() throws {
        let directory = TemporaryDirectory()
        let path = try exampleDatabase(in: directory)
        // 130 more orders, with repeated values and NULLs in the sort column.
        let values = (3...132).map { "(\($0), \($0 % 7), 'status \($0 % 3)', \($0 % 5 == 0 ? "NULL" : "'note \($0 % 4)'"))" }
        try sqlite3(path, "INSERT INTO orders (id, purchase_num, status, note) VALUES \(values.joined(separator: ", "))")
        let inspector = try RunningInspector(database: path)
        defer { inspector.stop() }
        for sort in ["", "sort=note", "sort=note&desc=1", "sort=purchase_num&desc=1", "where=note&op=notnull&sort=status"] {
            var ids: [String] = []
            var next: String? = "/tables/orders?" + sort
            while let url = next {
                let page = try inspector.get(url.replacingOccurrences(of: "&amp;", with: "&"))
                #expect(page.status == 200)
                ids += page.body.matches(#"<tr><td class="num" data-type="integer">(\d+)</td>"#)
                next = page.body.matches(#"id="next-page" href="([^"]+)""#).first
            }
            let expected = sort.contains("notnull") ? 132 - 27 : 132   // order 1 and every fifth have no note
            #expect(ids.count == expected, "\(sort): \(ids.count) rows")
            #expect(Set(ids).count == ids.count, "\(sort): a row came twice")
        }
    }

    /// Issue 36, report 3: sorting by a column of long values put each whole value in the Next
    /// link, and a page of 1 MB values made a link the server refused.
    @Test func pagingSortedByLongValuesKeepsLinksShortAndVisitsEveryRowOnce() throws {
        let directory = TemporaryDirectory()
        let path = try exampleDatabase(in: directory)
        // 120 orders whose notes are 20,000 characters, many of them equal (ties by key).
        try sqlite3(path, "WITH RECURSIVE n(i) AS (SELECT 3 UNION ALL SELECT i + 1 FROM n WHERE i < 122) INSERT INTO orders (id, purchase_num, status, note) SELECT i, i, 'new', printf('%.*c', 20000, char(65 + i % 7)) FROM n")
        let inspector = try RunningInspector(database: path)
        defer { inspector.stop() }
        for sort in ["sort=note", "sort=note&desc=1"] {
            var ids: [String] = []
            var next: String? = "/tables/orders?" + sort
            while let url = next {
                #expect(url.utf8.count < 400, "a link carries a long value: \(url.prefix(80))…")
                let page = try inspector.get(url.replacingOccurrences(of: "&amp;", with: "&"))
                #expect(page.status == 200, "\(page.status)")
                ids += page.body.matches(#"<tr><td class="num" data-type="integer">(\d+)</td>"#)
                next = page.body.matches(#"id="next-page" href="([^"]+)""#).first
            }
            #expect(ids.count == 122 && Set(ids).count == 122, "\(sort): \(ids.count) rows, \(Set(ids).count) distinct")
        }
    }

    /// Issue 36, report 7: a WITHOUT ROWID table's page did not say its changes never reach the
    /// feed; the feed's last seq never changed; "history" wrapped in its narrow column.
    @Test func smallThingsAPersonNoticesOnThePages() throws {
        let directory = TemporaryDirectory()
        let path = try exampleDatabase(in: directory)
        try sqlite3(path, "CREATE TABLE tags (name TEXT PRIMARY KEY, n INTEGER) WITHOUT ROWID; INSERT INTO tags VALUES ('a', 1);")
        let inspector = try RunningInspector(database: path)
        defer { inspector.stop() }
        let tags = try inspector.get("/tables/tags")
        #expect(tags.status == 200 && tags.body.contains("id=\"without-rowid\""))
        #expect(try !inspector.get("/tables/orders").body.contains("without-rowid"))
        #expect(try inspector.get("/feed").body.contains("last seq <span id=\"last-seq\">2</span>"))
        let script = try inspector.get("/static/inspector.js").body
        #expect(script.contains("lastSeq.textContent = row.dataset.seq"), "the live feed moves the last seq along")
        let style = try inspector.get("/static/inspector.css").body
        #expect(style.contains("td.actions { white-space: nowrap; overflow-wrap: normal; }"))
    }

    /// Issue 36, report 2: a deleted or replaced database file stayed on screen under a green
    /// "live" badge, though its connections read a file nobody writes any more.
    @Test func aDeletedOrReplacedFileIsSaidAndNotCalledLive() throws {
        let directory = TemporaryDirectory()
        let path = try exampleDatabase(in: directory)
        let inspector = try RunningInspector(database: path)
        defer { inspector.stop() }
        #expect(try inspector.get("/feed").body.contains("data-events"))
        let other = directory.path("other.sqlite")
        try FileManager.default.copyItem(atPath: path, toPath: other)
        _ = rename(other, path)   // replaced, as a restore from a backup does
        let replaced = try inspector.get("/feed")
        #expect(replaced.body.contains("id=\"file-gone\"") && replaced.body.contains("replaced") && !replaced.body.contains("data-events"))
        let events = try inspector.stream("/events") { $0.contains("event: gone") }
        #expect(events.contains("event: gone") && events.contains("replaced"))
        try FileManager.default.removeItem(atPath: path)
        #expect(try inspector.get("/").body.contains("was deleted"))
    }

    /// Issue 36, report 4: the feed, history and live events carried values whole (30 rows of
    /// 1 MB notes made the feed page 63 MB); now each value is cut, with a link to the entry.
    /// (The server still reads each entry whole: 200 KB notes keep the test quick.)
    @Test func entriesShowCutValuesWithALinkToTheWholeEntry() throws {
        let directory = TemporaryDirectory()
        let path = try exampleDatabase(in: directory)
        let inspector = try RunningInspector(database: path)
        defer { inspector.stop() }
        try sqlite3(path, "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 30) INSERT INTO orders (id, purchase_num, status, note) SELECT 100 + i, i, 'new', printf('%.*c', 200000, 'x') FROM n")
        let feed = try inspector.get("/feed")
        #expect(feed.status == 200 && feed.body.utf8.count < 200_000, "the feed page is \(feed.body.utf8.count) bytes")
        #expect(feed.body.contains("href=\"/entry/3\">whole entry</a>"))
        let live = try inspector.stream("/events?after=2") { $0.contains(#""expand":"/entry/3""#) }
        #expect(live.utf8.count < 200_000 && live.contains(#""expand":"/entry/3""#), "the live events are \(live.utf8.count) bytes")
        #expect(try inspector.get("/history/orders/101").body.utf8.count < 100_000)
        let whole = try inspector.get("/entry/3")
        #expect(whole.status == 200 && whole.body.contains(String(repeating: "x", count: 200_000)))
        #expect(try inspector.get("/entry/999").status == 404)
        #expect(try inspector.get("/entry/x").status == 400)
    }

    /// Issue 36, report 1: a table named with other than ASCII letters and digits could not be
    /// opened, since the route passed its name on still percent-encoded.
    @Test func tablesWithAnyNameOpenFromTheirLinksAndHistoryToo() throws {
        let directory = TemporaryDirectory()
        let path = try exampleDatabase(in: directory)
        try sqlite3(path, #"CREATE TABLE "café" (id INTEGER PRIMARY KEY, name TEXT); CREATE TABLE "sl/ash" (id INTEGER PRIMARY KEY, name TEXT);"#)
        let inspector = try RunningInspector(database: path)
        defer { inspector.stop() }
        try sqlite3(path, #"INSERT INTO "café" VALUES (1, 'crème'); INSERT INTO "sl/ash" VALUES (7, 'x');"#)
        let overview = try inspector.get("/")
        let links = overview.body.matches(#"<a href="(/tables/[^"]+)">"#)
        #expect(links.contains("/tables/caf%C3%A9") && links.contains("/tables/sl%2Fash"), "\(links)")
        let cafe = try inspector.get("/tables/caf%C3%A9")
        #expect(cafe.status == 200 && cafe.body.contains("crème"), "\(cafe.status): \(cafe.body.prefix(300))")
        #expect(try inspector.get("/tables/sl%2Fash").status == 200)
        let history = try inspector.get("/history/caf%C3%A9/1")
        #expect(history.status == 200 && history.body.contains("crème"), "\(history.status)")
    }

    @Test("tables named `.`, `..` and `..~` open from their links as a browser resolves them (it drops `.` and `..` segments, percent-encoded or not), and so do their rows' histories")
    func tablesNamedLikeDotSegmentsOpenFromTheirLinks() throws {
        let directory = TemporaryDirectory()
        let path = try exampleDatabase(in: directory)
        let names = [".", "..", "..~"]
        try sqlite3(path, names.map { #"CREATE TABLE "\#($0)" (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO "\#($0)" VALUES (1, 'in \#($0)');"# }.joined())
        let inspector = try RunningInspector(database: path)
        defer { inspector.stop() }
        let overview = try inspector.get("/").body
        for name in names {
            let pattern = #"<td><a href="(/tables/[^"]+)">"# + NSRegularExpression.escapedPattern(for: name) + "</a>"
            let link = try #require(overview.matches(pattern).first, "no link to table \(name)")
            let page = try inspector.get(Self.asABrowserSendsIt(link))
            #expect(page.status == 200 && page.body.contains("<h1>\(name)</h1>") && page.body.contains(">in \(name)<"), "\(name): \(link) opened \(page.status) \(page.body.prefix(200))")
            let historyLink = try #require(page.body.matches(#"<a href="(/history/[^"]+)">row</a>"#).first, "\(name): no row link")
            let history = try inspector.get(Self.asABrowserSendsIt(historyLink))
            #expect(history.status == 200 && history.body.contains(">\(name)</a> row 1</h1>"), "\(name): \(historyLink) opened \(history.status)")
        }
    }

    @Test("live pages are rendered once per commit for all their viewers, and never shown from before a commit: a write by the shell, a change of the schema without an entry, and 20 viewers at once")
    func livePagesAreSharedButNeverStale() throws {
        let directory = TemporaryDirectory()
        let path = try exampleDatabase(in: directory)
        let inspector = try RunningInspector(database: path)
        defer { inspector.stop() }
        let pages = ["/", "/tables/orders", "/history/orders/1"]
        for page in pages { #expect(try inspector.get(page).status == 200) }
        try sqlite3(path, "UPDATE orders SET status = 'written by the shell' WHERE id = 1")
        for page in pages.dropFirst() {
            #expect(try inspector.get(page).body.contains("written by the shell"), "\(page) was shown from before the commit")
        }
        try sqlite3(path, "ALTER TABLE orders ADD COLUMN added_by_the_shell TEXT")   // no entry: only the schema changed
        #expect(try inspector.get("/tables/orders").body.contains("added_by_the_shell"), "the table page was shown from before the schema change")
        let replies = try inspector.getAtOnce("/tables/orders", count: 20)
        #expect(replies.allSatisfy { $0.status == 200 && $0.body == replies[0].body && $0.body.contains("added_by_the_shell") })
    }

    /// `link`'s path with its `.` and `..` segments resolved as a browser resolves them before
    /// sending (WHATWG URL: `%2e` counts as a dot).
    private static func asABrowserSendsIt(_ link: String) -> String {
        let query = link.firstIndex(of: "?").map { String(link[$0...]) } ?? ""
        var kept: [Substring] = []
        for segment in link.prefix(while: { $0 != "?" }).split(separator: "/", omittingEmptySubsequences: false).dropFirst() {
            switch segment.lowercased().replacingOccurrences(of: "%2e", with: ".") {
            case ".": continue
            case "..": _ = kept.popLast()
            default: kept.append(segment)
            }
        }
        return "/" + kept.joined(separator: "/") + query
    }

    /// Issue 36, report 7: a revert that writes nothing said "Reverted", and the page's
    /// messages gave the command line's flags.
    @Test func aRevertThatWritesNothingSaysSoAndMessagesSpeakThePagesTerms() throws {
        let directory = TemporaryDirectory()
        let path = try exampleDatabase(in: directory)   // seq 1 and 2: two inserts
        #expect(runCLI(["set", "orders", "1", "purchase_num=5", "--db", path]).status == 0)   // seq 3
        #expect(runCLI(["set", "orders", "1", "purchase_num=1", "--db", path]).status == 0)   // seq 4
        let inspector = try RunningInspector(database: path, writes: true)
        defer { inspector.stop() }
        let conflict = try inspector.get("/revert?from=3&to=3")
        #expect(conflict.status == 409)
        #expect(conflict.body.contains("preview overwriting them with the link below") && conflict.body.contains("id=\"overwrite\""), "\(conflict.body)")
        #expect(!conflict.body.contains("--overwrite-later-changes") && !conflict.body.contains("overwritingLaterChanges"))
        // Overwriting seq 4 puts back the 1 that is already there: nothing to write.
        let preview = try inspector.get("/revert?from=3&to=3&overwrite=1")
        #expect(preview.status == 200 && preview.body.contains("Nothing to revert") && !preview.body.contains("confirm-revert"), "\(preview.body)")
        let posted = try inspector.post("/revert", form: "from=3&to=3&overwrite=1&token=\(inspector.token)")
        #expect(posted.body.contains("Nothing to revert") && !posted.body.contains("Reverted"), "\(posted.body)")
        #expect(runCLI(["changes", "--db", path]).outputLines.count == 4, "nothing was written")
    }

    /// Issue 36, report 6: a page on another 127.0.0.1 port could make the browser open a
    /// revert preview with the cookie (SameSite does not separate ports), and a preview had no
    /// range limit while it held the write lock.
    @Test func requestsFromAnotherSiteOrPortAndHugeRevertsAreRefused() throws {
        let directory = TemporaryDirectory()
        let inspector = try RunningInspector(database: try exampleDatabase(in: directory), writes: true)
        defer { inspector.stop() }
        #expect(try inspector.get("/revert?from=1&to=1", headers: ["Sec-Fetch-Site: same-site"]).status == 403)
        #expect(try inspector.get("/tables/orders", headers: ["Sec-Fetch-Site: cross-site"]).status == 403)
        #expect(try inspector.get("/revert?from=1&to=1", headers: ["Sec-Fetch-Site: same-origin"]).status == 200)
        #expect(try inspector.get("/", headers: ["Sec-Fetch-Site: none"]).status == 200)
        let forged = try inspector.post("/revert", form: "from=1&to=1&token=\(inspector.token)", headers: ["Origin: http://127.0.0.1:1"])
        #expect(forged.status == 403)
        let huge = try inspector.get("/revert?from=1&to=1000000")
        #expect(huge.status == 400 && huge.body.contains("at most 10000 entries"))
        #expect(runCLI(["changes", "--db", inspector.database]).outputLines.count == 2, "nothing was written")
    }

    @Test func badParametersGetOneLineAndNothingBreaks() throws {
        let directory = TemporaryDirectory()
        let inspector = try RunningInspector(database: try exampleDatabase(in: directory), writes: true)
        defer { inspector.stop() }
        let unknown = try inspector.get("/tables/ordres")
        #expect(unknown.status == 404 && unknown.body.contains("no table &#39;ordres&#39; in this database (did you mean orders?)"))
        let badValue = try inspector.get("/tables/orders?where=purchase_num&op=eq&value=lots")
        #expect(badValue.status == 400 && badValue.body.contains("purchase_num"))
        #expect(try inspector.get("/tables/orders?sort=nope").status == 400)
        #expect(try inspector.get("/revert?from=9&to=2").status == 400)
        #expect(try inspector.get("/history/orders/x").status == 400)
        // A form posted without the token (from another site, which cannot read it) writes nothing.
        let forged = try inspector.post("/revert", form: "from=1&to=1")
        #expect(forged.status == 403)
        #expect(try runBinary(["get", "orders", "--db", inspector.database]).output.contains("new"))
    }

    /// The feed's filters on the page and on the live stream, and a stream that reconnects with
    /// `Last-Event-ID` resumes after that entry.
    @Test func theFeedFiltersByTableAndOperationLiveAndOnThePage() throws {
        let directory = TemporaryDirectory()
        let path = try exampleDatabase(in: directory)   // orders 1 and 2: seqs 1 and 2
        try sqlite3(path, "INSERT INTO customers (id, name) VALUES (7, 'Ada'); UPDATE orders SET status = 'shipped' WHERE id = 1")
        let inspector = try RunningInspector(database: path)
        defer { inspector.stop() }
        let page = try inspector.get("/feed?table=orders&op=update").body
        #expect(page.matches(#"<tr data-seq="(\d+)">"#) == ["4"])
        let events = try inspector.stream("/events?table=customers&op=insert&after=0") { $0.contains("id: 3\n") }
        #expect(events.matches(#"id: (\d+)\n"#) == ["3"])
        try sqlite3(path, "INSERT INTO customers (id, name) VALUES (8, 'Grace'); INSERT INTO orders (id, purchase_num, status) VALUES (9, 1, 'new')")
        let resumed = try inspector.stream("/events?table=customers&op=insert", lastEventID: 3) { $0.contains("id: 5\n") }
        #expect(resumed.matches(#"id: (\d+)\n"#) == ["5"])
        #expect(resumed.contains(#""detail":"{id: 8, name: Grace, email: null}""#))
    }

    /// Sync state is read from the file while `signalstore sync` runs against it: two replicas
    /// insert customers with one email; the second one's insert loses and is kept as a conflict.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["SIGNALSTORE_TEST_POSTGRES_URL"] != nil || ProcessInfo.processInfo.environment["CI"] == "true"))
    func theOverviewShowsSyncStateAndConflicts() throws {
        let server = try #require(ProcessInfo.processInfo.environment["SIGNALSTORE_TEST_POSTGRES_URL"], "start PostgreSQL: eval \"$(.ci/postgres start)\"")
        let url = server + (server.contains("?") ? "&" : "?") + "schema=inspect_" + UUID().uuidString.prefix(8).lowercased()
        let first = TemporaryDirectory(), second = TemporaryDirectory()
        let replicas = [try exampleDatabase(in: first), try exampleDatabase(in: second)]
        for (id, replica) in zip([10, 20], replicas) {
            try sqlite3(replica, "INSERT INTO customers (id, name, email) VALUES (\(id), 'Ada', 'ada@example.com')")
            let sync = try runBinary(["sync", "--once", "--postgres", url, "--table", "customers", "--db", replica])
            #expect(sync.status == 0, "\(sync.error)")
        }
        // A durable consumer that acknowledged the first entry: its lag is the rest.
        let store = try Store(existing: replicas[1], access: .readWrite)
        let subscription = store.changes(consumer: "uploader").subscribe(onValue: { _ in })
        subscription.dispose()
        try store.acknowledge(through: 1, consumer: "uploader")
        let head = try store.lastChangeSeq
        store.close()
        let inspector = try RunningInspector(database: replicas[1])
        defer { inspector.stop() }
        let overview = try inspector.get("/").body
        #expect(overview.contains("<tr><td>uploader</td><td class=\"num\">#1</td><td class=\"num\">\(head - 1)</td></tr>"))
        #expect(overview.contains("<dt>Waiting to upload</dt><dd>0</dd>"))
        #expect(overview.contains("<dd id=\"conflict-count\">1</dd>"))
        #expect(overview.contains("UNIQUE constraint failed: customers.email"))
    }

    @Test func aBusyPortIsOneClearError() throws {
        let directory = TemporaryDirectory()
        let path = try exampleDatabase(in: directory)
        let first = try RunningInspector(database: path)
        defer { first.stop() }
        let second = try runBinary(["inspect", "--port", String(first.port), "--db", path])
        #expect(second.status == 1)
        #expect(second.error.hasPrefix("error: cannot serve on 127.0.0.1:\(first.port)"))
        #expect(second.error.contains("choose another --port"))
    }
}

#endif
