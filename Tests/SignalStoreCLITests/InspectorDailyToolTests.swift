// The inspector as a daily tool (issue 36): one live source for every client, and what a
// Datasette or Prisma Studio user expects of a table page. Raw HTTP against the built binary;
// the browser test (Tests/Browser) covers the same pages in Chromium.
#if SIGNALSTORE_INSPECTOR
import Foundation
import SignalStoreTestSupport
import Testing

@Suite("inspector as a daily tool")
struct InspectorDailyToolTests {
    /// Issue 36, report 5: every live connection read and encoded each entry itself, so 200
    /// clients and a 2,000-row transaction took 12–15 s of both cores. Now one reader hands the
    /// same bounded event to all: twenty clients, two of which never read, each get the
    /// transaction as one event of its first 20 entries, quickly.
    @Test func aBigTransactionReachesEveryLiveClientAsOneBoundedEvent() throws {
        let directory = TemporaryDirectory()
        let path = try exampleDatabase(in: directory)   // seqs 1 and 2
        let inspector = try RunningInspector(database: path)
        defer { inspector.stop() }
        let stalled = try (0..<2).map { _ in try inspector.openStream("/events") }
        defer { stalled.forEach { close($0) } }
        let streams = try (0..<18).map { _ in try inspector.openStream("/events") }
        defer { streams.forEach { close($0) } }
        for stream in streams { #expect(inspector.readStream(stream) { $0.contains(": connected") }.contains(": connected")) }
        let start = Date()
        try sqlite3(path, "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 2000) INSERT INTO customers (id, name, email) SELECT x, 'customer ' || x, printf('%.*c', 2000, 'x') || x FROM n")
        for stream in streams {
            let events = inspector.readStream(stream) { $0.contains("id: 2002\n") }
            #expect(events.contains("event: group\nid: 2002\n"), "\(events.suffix(300))")
            let data = events.matches(#"event: group\nid: 2002\ndata: ([^\n]+)"#).first ?? ""
            #expect(data.contains(#""count":2000"#) && data.contains("2,000 inserts into customers"))
            #expect(data.matches(#""seq":(\d+)"#).count == 20, "the event carries the first 20 entries")
            #expect(data.utf8.count < 20 * 600, "each value is cut: \(data.utf8.count) bytes")
        }
        #expect(Date().timeIntervalSince(start) < 10)
        // The feed page shows the transaction as one line that links to its entries.
        let feed = try inspector.get("/feed").body
        #expect(feed.contains("2,000 entries written together") && feed.contains("href=\"/feed?from=3&amp;through=2002\""))
        #expect(feed.matches(#"<tr data-seq="(\d+)" class="member""#).count == 20)
        #expect(feed.contains("id=\"older\" href=\"/feed?through=2\""), "the older page starts before the whole transaction")
        let listed = try inspector.get("/feed?from=3&through=2002").body
        #expect(listed.matches(#"<tr data-seq="(\d+)">"#).count == 100 && listed.contains("each on its own line"))
        #expect(listed.contains("id=\"older\" href=\"/feed?from=3&amp;through=1902\""))
    }

    /// A table page: previous and next pages with the rows' positions, several conditions,
    /// the schema, numbers shown as dates on request, and the list of tables beside it.
    @Test func aTablePageHasPositionsConditionsSchemaDatesAndTheTableList() throws {
        let directory = TemporaryDirectory()
        let path = try exampleDatabase(in: directory)
        try sqlite3(path, "WITH RECURSIVE n(x) AS (SELECT 3 UNION ALL SELECT x + 1 FROM n WHERE x < 130) INSERT INTO orders (id, purchase_num, status, updated_at) SELECT x, x % 4, 'status ' || (x % 2), 1795670987.5 FROM n")
        let inspector = try RunningInspector(database: path)
        defer { inspector.stop() }
        let first = try inspector.get("/tables/orders?sort=purchase_num").body
        #expect(first.contains("rows 1–50 of 130") && !first.contains("previous-page"))
        let nextURL = try #require(first.matches(#"id="next-page" href="([^"]+)""#).first).replacingOccurrences(of: "&amp;", with: "&")
        let second = try inspector.get(nextURL).body
        #expect(second.contains("rows 51–100 of 130"))
        let previousURL = try #require(second.matches(#"id="previous-page" href="([^"]+)""#).first).replacingOccurrences(of: "&amp;", with: "&")
        #expect(try inspector.get(previousURL).body.contains("rows 1–50 of 130"))
        let third = try inspector.get(try #require(second.matches(#"id="next-page" href="([^"]+)""#).first).replacingOccurrences(of: "&amp;", with: "&")).body
        #expect(third.contains("rows 101–130 of 130") && !third.contains("next-page"))
        let backURL = try #require(third.matches(#"id="previous-page" href="([^"]+)""#).first).replacingOccurrences(of: "&amp;", with: "&")
        let back = try inspector.get(backURL).body
        #expect(back.contains("rows 51–100 of 130"), "\(back.matches(#"id="summary"[^>]*>([^<]+)"#))")
        #expect(back.matches(#"<tr><td class="num" data-type="integer">(\d+)</td>"#) == second.matches(#"<tr><td class="num" data-type="integer">(\d+)</td>"#))
        // Two conditions, both must hold; the form shows both and one more to add.
        let filtered = try inspector.get("/tables/orders?where=purchase_num&op=eq&value=1&where2=status&op2=eq&value2=status%201").body
        #expect(filtered.contains("32 rows match"), "\(filtered.matches(#"id="summary"[^>]*>([^<]+)"#))")
        #expect(filtered.contains("name=\"where3\"") && filtered.contains("id=\"clear-filters\""))
        // The schema, folded: columns, the CHECK, the foreign key with its action, the index.
        #expect(first.contains("<details id=\"schema\">") && first.contains("CHECK (purchase_num &gt;= 0)"))
        #expect(first.contains("FOREIGN KEY (customer_id) REFERENCES customers (id) ON DELETE SET NULL") && first.contains("CREATE INDEX orders_by_customer"))
        // updated_at holds seconds since 1970: a date, the number on hover; a toggle shows the number.
        #expect(first.contains(#"title="1795670987.5"><time>2026-11-26 05:29:47.500</time>"#))
        let numbers = try inspector.get("/tables/orders?sort=purchase_num&dates=-").body
        #expect(!numbers.contains("<time>") && numbers.contains("<td class=\"num\" data-type=\"real\">1795670987.5</td>"))
        // Every page lists the tables beside it, the shown one marked.
        #expect(first.contains(#"<a href="/tables/orders" aria-current="page">orders</a>"#))
        #expect(try inspector.get("/feed").body.contains(#"<li><a href="/tables/customers">customers</a></li>"#))
        #expect(try inspector.get("/feed").body.contains("id=\"glossary\""))
    }

    /// A foreign-key value links to the row it refers to; that row's page lists the rows that
    /// refer to it; a dangling reference says so; an export holds what the filters keep.
    @Test func foreignKeysLinkBothWaysAndExportsHoldTheFilteredRows() throws {
        let directory = TemporaryDirectory()
        let path = try exampleDatabase(in: directory)
        try sqlite3(path, #"INSERT INTO customers (id, name) VALUES (7, 'Ada "the first", of London'); UPDATE orders SET customer_id = 7; INSERT INTO orders (id, purchase_num, status, customer_id) VALUES (9, 3, 'new', 99);"#)
        let inspector = try RunningInspector(database: path)
        defer { inspector.stop() }
        let orders = try inspector.get("/tables/orders").body
        #expect(orders.matches(#"<a class="parent" href="([^"]+)">7</a>"#) == ["/find/customers?column=id&amp;value=7", "/find/customers?column=id&amp;value=7"])
        let found = try inspector.get("/find/customers?column=id&value=7")
        #expect(found.status == 303 && found.header("location") == "/history/customers/7")
        let customer = try inspector.get("/history/customers/7").body
        #expect(customer.contains(#"<a href="/tables/orders?where=customer_id&amp;op=eq&amp;value=7">2 rows of orders</a>"#))
        let dangling = try inspector.get("/find/customers?column=id&value=99")
        #expect(dangling.status == 404 && dangling.body.contains("customers has no row whose id is 99: the reference dangles"))
        let csv = try inspector.get("/tables/orders/export?format=csv&where=customer_id&op=eq&value=7")
        #expect(csv.header("content-type") == "text/csv; charset=utf-8" && csv.header("content-disposition") == "attachment; filename=\"orders.csv\"")
        let lines = csv.body.dechunked.components(separatedBy: "\r\n")
        #expect(lines.first == "id,purchase_num,status,note,created_at,updated_at,customer_id" && lines.count == 4)
        #expect(lines[2].hasPrefix("2,2,paid,gift,") && lines[2].hasSuffix(",,7"))
        let customers = try inspector.get("/tables/customers/export?format=csv").body.dechunked
        #expect(customers.contains(#"7,"Ada ""the first"", of London","#))
        let json = try parseJSON(try inspector.get("/tables/orders/export?format=json&sort=id&desc=1").body.dechunked) as? [[String: Any]]
        #expect(json?.map { $0["id"] as? Int } == [9, 2, 1])
        #expect(try inspector.get("/tables/orders/export?format=xml").body.contains("choose csv or json"))
    }
}

extension RunningInspector {
    /// Opens a live stream at `path` and returns its socket, unread.
    func openStream(_ path: String) throws -> Int32 {
        try connection(sending: "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nCookie: signalstore_inspector_\(port)=\(token)\r\n\r\n", timeout: 10)
    }

    /// Reads from `socket` until `isEnough` holds for what arrived from this call on, or 10 s
    /// pass without a byte.
    func readStream(_ socket: Int32, until isEnough: (String) -> Bool) -> String {
        var reply: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { Foundation.read(socket, $0.baseAddress, $0.count) }
            if count <= 0 { break }
            reply += buffer[0..<count]
            if isEnough(String(decoding: reply, as: UTF8.self)) { break }
        }
        return String(decoding: reply, as: UTF8.self)
    }
}

extension String {
    /// A chunked HTTP body's data, its chunk sizes removed.
    var dechunked: String {
        var rest = Substring(self), data = ""
        while let lineEnd = rest.range(of: "\r\n"), let size = Int(rest[..<lineEnd.lowerBound], radix: 16), size > 0 {
            let start = lineEnd.upperBound
            let bytes = Array(rest[start...].utf8)
            data += String(decoding: bytes.prefix(size), as: UTF8.self)
            rest = Substring(String(decoding: bytes.dropFirst(size + 2), as: UTF8.self))
        }
        return data.isEmpty ? self : data
    }
}
#endif
