// The inspector comes with the Inspector trait (`swift test --traits Sync,Inspector`).
#if SIGNALSTORE_INSPECTOR
import Foundation
import SignalStoreTestSupport
import Testing

/// `signalstore inspect` against requests a local attacker, or a mistyped address, sends: no URL
/// or request stops the process.
@Suite("inspect: hostile requests", .ownThread)
struct InspectorHostileRequestTests {
    /// Values that are not numbers a page can use: the extremes of Int64, one past them, more
    /// digits than any integer, other notations, and text.
    static let badNumbers = [
        "9223372036854775807", "-9223372036854775807", "-9223372036854775808", "9223372036854775808",
        "-1", "99999999999999999999999999999", "1e3", "0x10", "1.5", "%2B1", "abc", "%00",
    ]

    @Test func theThreeAddressesThatTrappedAnswer400WithASentence() throws {
        let directory = TemporaryDirectory()
        let inspector = try RunningInspector(database: try exampleDatabase(in: directory))
        defer { inspector.stop() }
        for (path, parameter) in [
            ("/tables/orders?offset=9223372036854775807", "offset"),
            ("/tables/orders?n=9223372036854775807", "n"),
            ("/events?after=-9223372036854775807", "after"),
        ] {
            let reply = try inspector.get(path)
            #expect(reply.status == 400, "\(path)")
            #expect(reply.body.contains("\(parameter) must be a whole number from"), "\(path): \(reply.body)")
        }
        let resumed = try inspector.get("/events", headers: ["Last-Event-ID: -9223372036854775807"])
        #expect(resumed.status == 400 && resumed.body.contains("Last-Event-ID must be a whole number"))
        #expect(try inspector.get("/").status == 200, "the inspector still answers")
    }

    /// Every route's parameters and path segments, with every bad number: each answer is a
    /// page (200, 400 or 404; `/find`'s redirect), and the process is alive at the end.
    @Test func everyRouteAnswersEveryBadNumberAndTheProcessLives() throws {
        let directory = TemporaryDirectory()
        let inspector = try RunningInspector(database: try exampleDatabase(in: directory), writes: true)
        defer { inspector.stop() }
        let queries = [
            ("/tables/orders", ["offset", "n"]), ("/tables/orders/export", ["offset", "n"]), ("/feed", ["through", "from"]),
            ("/revert", ["from", "to"]), ("/find/orders", ["value"]), ("/tables/orders?after=i1&key=i1", ["n"]),
        ]
        var paths = queries.flatMap { base, names in
            names.flatMap { name in Self.badNumbers.map { base + (base.contains("?") ? "&" : "?") + "\(name)=\($0)" } }
        }
        paths += Self.badNumbers.flatMap { number in
            ["/entry/\(number)", "/history/orders/\(number)", "/value/orders/\(number)/status", "/tables/orders?after=i\(number)&key=i\(number)"]
        }
        for path in paths {
            let reply = try inspector.get(path)
            // `/find` redirects to the row a value names (`+1` is 1).
            let answers = path.hasPrefix("/find/") ? [303, 400, 404] : [200, 400, 404]
            #expect(answers.contains(reply.status), "\(path) answered \(reply.status)")
            if reply.status == 400 { #expect(reply.body.contains("id=\"message\""), "\(path): a 400 says why") }
        }
        for number in Self.badNumbers {
            let path = "/events?after=\(number)"
            let reply = try inspector.stream(path) { $0.contains("\r\n\r\n") }
            #expect(reply.hasPrefix("HTTP/1.1 400") || reply.hasPrefix("HTTP/1.1 200"), "\(path): \(reply.prefix(40))")
        }
        #expect(try inspector.get("/").status == 200)
        #expect(inspector.child.process.isRunning, "the inspector is still running")
    }

    @Test func theTokenRedirectStaysOnThisServerAndTwoHostHeadersAreRefused() throws {
        let directory = TemporaryDirectory()
        let inspector = try RunningInspector(database: try exampleDatabase(in: directory))
        defer { inspector.stop() }
        for (path, location) in [("//evil.example/", "/evil.example/"), ("/\\evil.example/", "/evil.example/"), ("///feed", "/feed")] {
            let reply = try inspector.get("\(path)?token=\(inspector.token)", cookie: false)
            #expect(reply.status == 303 && reply.header("location") == location, "\(path) → \(reply.header("location") ?? "none")")
        }
        let twoHosts = try inspector.get("/", headers: ["Host: attacker.example"])
        #expect(twoHosts.status == 400 && twoHosts.body.contains("two Host headers"))
    }

    @Test func aConnectionThatSendsNothingIsClosed() throws {
        let directory = TemporaryDirectory()
        let inspector = try RunningInspector(database: try exampleDatabase(in: directory))
        defer { inspector.stop() }
        // Half a request, then silence; reads time out after 30 s, well past the server's 10.
        let started = Date()
        let socket = try inspector.connection(sending: "GET / HTTP/1.1\r\n", timeout: 30)
        defer { close(socket) }
        var byte: UInt8 = 0
        let count = read(socket, &byte, 1)
        let waited = Date().timeIntervalSince(started)
        #expect(count == 0, "the server closed the connection (read returned \(count))")
        #expect(waited > 5 && waited < 25, "closed after \(waited) s")
        #expect(try inspector.get("/").status == 200)
    }
}
#endif
