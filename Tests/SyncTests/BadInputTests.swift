#if SIGNALSTORE_SYNC
import Foundation
import SignalStoreSync
import SignalStoreTestSupport
import Testing

@Suite("Sync: bad input gets one clear line, loses nothing, shows no password", .enabled(if: TestServer.isEnabled, "needs PostgreSQL (SIGNALSTORE_TEST_POSTGRES_URL)"), .ownThread)
struct BadInputTests {
    /// Runs `signalstore sync --once` and checks the failure is one line that says `expected`.
    private func expectFailure(_ arguments: [String], environment: [String: String]? = nil, saying expected: String, secret: String? = nil) throws {
        let result = try runProgram(signalstore, ["sync", "--once"] + arguments, environment: environment)
        #expect(result.status == 1, "exit \(result.status): \(result.error)")
        let errorLines = result.error.split(separator: "\n").filter { $0.hasPrefix("error:") }
        #expect(errorLines.count == 1, "\(result.error)")
        #expect(errorLines.first?.contains(expected) == true, "\(result.error)")
        for secret in [secret, TestServer.password].compactMap({ $0 }) where !secret.isEmpty {
            #expect(!(result.output + result.error).contains(secret), "the password was printed")
        }
    }

    @Test("a malformed or foreign URL, and no URL at all")
    func badURLs() throws {
        let folder = TemporaryDirectory()
        let replica = try Replica(folder, "a")
        try expectFailure(["--postgres", "mysql://root:hunter2secret@localhost/db", "--db", replica.path], saying: "not 'postgres:'", secret: "hunter2secret")
        try expectFailure(["--postgres", "postgres://u:hunter2secret@localhost/db?sslmode=sometimes", "--db", replica.path], saying: "sslmode 'sometimes'", secret: "hunter2secret")
        try expectFailure(["--db", replica.path], environment: ["PATH": "/usr/bin:/bin"], saying: "SIGNALSTORE_POSTGRES_URL")
    }

    @Test("a wrong password, an unreachable server and a host that does not resolve: refused or unreachable, the password never shown")
    func wrongPasswordAndUnreachable() throws {
        let folder = TemporaryDirectory()
        let replica = try Replica(folder, "a")
        let url = try TestServer.freshURL()
        try expectFailure(["--postgres", TestServer.withPassword(url, "wrong-pass-4711"), "--db", replica.path], saying: "refused user 'signalstore'", secret: "wrong-pass-4711")
        try expectFailure(["--postgres", TestServer.unreachable(url), "--db", replica.path], saying: "cannot reach PostgreSQL at 127.0.0.1:1: connection refused")
        // A host whose name does not resolve (`.invalid` never does).
        try expectFailure(["--postgres", "postgres://app:dns-pass-1234@no-such-host.invalid:5432/app?sslmode=disable", "--db", replica.path],
                          saying: "cannot find host 'no-such-host.invalid' (name lookup failed)", secret: "dns-pass-1234")
        // sslmode=require against a server without TLS is refused; prefer falls back to plain TCP.
        var requireTLS = URLComponents(string: url)!
        requireTLS.queryItems = requireTLS.queryItems!.map { $0.name == "sslmode" ? URLQueryItem(name: "sslmode", value: "require") : $0 }
        try expectFailure(["--postgres", requireTLS.string!, "--db", replica.path], saying: "does not offer TLS, and the URL asks for sslmode=require")
        var preferTLS = requireTLS
        preferTLS.queryItems = preferTLS.queryItems!.map { $0.name == "sslmode" ? URLQueryItem(name: "sslmode", value: "prefer") : $0 }
        #expect(try runProgram(signalstore, ["sync", "--once", "--postgres", preferTLS.string!, "--db", replica.path]).status == 0)
        // The URL may come from the environment, where its password is just as secret.
        try expectFailure(["--db", replica.path], environment: ["SIGNALSTORE_POSTGRES_URL": TestServer.withPassword(url, "env-pass-0815")], saying: "refused user", secret: "env-pass-0815")
    }

    @Test("a table missing on this side, and a table without a primary key")
    func tablesThatCannotSync() throws {
        let folder = TemporaryDirectory()
        let replica = try Replica(folder, "a")
        let url = try TestServer.freshURL()
        try expectFailure(["--postgres", url, "--table", "invoices", "--db", replica.path], saying: "no table 'invoices' to sync")
        try sqlite3(replica.path, "CREATE TABLE notes (body TEXT)")
        try expectFailure(["--postgres", url, "--db", replica.path], saying: "needs a PRIMARY KEY")
        let synced = try runProgram(signalstore, ["sync", "--once", "--postgres", url, "--table", "orders", "--table", "customers", "--db", replica.path])
        #expect(synced.status == 0, "\(synced.error)")
    }

    @Test("replicas on different schema versions: the one behind stops with a one-line error and applies nothing of the batch")
    func schemaMismatchAppliesNothing() async throws {
        let folder = TemporaryDirectory()
        let url = try TestServer.freshURL()
        let newer = try Replica(folder, "newer")
        let olderPath = folder.path("older.sqlite")
        let older = try Store(path: olderPath, migrations: packageMigrationList.filter { $0.version == 1 })
        try older.execute("INSERT INTO orders (id, purchase_num, status) VALUES (1, 1, 'old')")
        older.close()
        try newer.store.execute("INSERT INTO orders (id, purchase_num, status) VALUES (2, 2, 'new')")
        try newer.store.execute("UPDATE orders SET purchase_num = 3 WHERE id = 2")
        try await newer.client(url, tables: ["orders"]).syncOnce()

        for _ in 0..<2 {   // the second run meets the same batch: nothing moved
            try expectFailure(["--postgres", url, "--db", olderPath], saying: "'customer_id' of 'orders', which this database does not have")
        }
        let rows = try sqlite3(olderPath, "SELECT id, purchase_num FROM orders ORDER BY id")
        #expect(rows == "1|1\n")
    }
}

@Suite("Sync: a copied database file", .enabled(if: TestServer.isEnabled, "needs PostgreSQL (SIGNALSTORE_TEST_POSTGRES_URL)"), .ownThread)
struct CopiedFileTests {
    @Test("a copy of a replica's file is refused with a one-line error until it gets a new origin; then both converge")
    func copiedFileNeedsNewOrigin() async throws {
        let folder = TemporaryDirectory()
        let url = try TestServer.freshURL()
        let original = try Replica(folder, "original")
        try original.store.execute("INSERT INTO orders (id, purchase_num, status) VALUES (1, 1, 'new')")
        try await original.client(url).syncOnce()
        original.store.close()
        let copyPath = folder.path("copy.sqlite")
        try FileManager.default.copyItem(atPath: original.path, toPath: copyPath)
        let reopened = try Replica(folder, "original")
        try reopened.store.execute("INSERT INTO orders (id, purchase_num, status) VALUES (2, 2, 'new')")
        try await reopened.client(url).syncOnce()

        try sqlite3(copyPath, "INSERT INTO orders (id, purchase_num, status) VALUES (3, 3, 'copy')")
        let refused = try runProgram(signalstore, ["sync", "--once", "--postgres", url, "--db", copyPath])
        #expect(refused.status == 1)
        #expect(refused.error.contains("is a copy of another replica's file") && refused.error.contains("--new-origin"), "\(refused.error)")
        #expect(try sqlite3(copyPath, "SELECT count(*) FROM orders") == "2\n", "the refused copy changed")

        let renewed = try runProgram(signalstore, ["sync", "--once", "--new-origin", "--postgres", url, "--db", copyPath])
        #expect(renewed.status == 0, "\(renewed.error)")
        try await reopened.client(url).syncOnce()
        #expect(try sqlite3(copyPath, "SELECT id, status FROM orders ORDER BY id") == "1|new\n2|new\n3|copy\n")
        #expect(try reopened.contents() == Replica(folder, "copy").contents())
    }
}
#endif
