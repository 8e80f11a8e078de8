#if SIGNALSTORE_SYNC
import Foundation
import SignalStoreSync
import SignalStoreTestSupport
import Testing

/// Against a real PostgreSQL that accepts TLS connections only (`hostssl` in its `pg_hba.conf`),
/// with a certificate for `localhost` signed by the tests' own CA: a sync that succeeds there
/// was encrypted.
@Suite("Sync: TLS, with sslmode and sslrootcert as libpq reads them", .enabled(if: TestServer.isEnabled, "needs PostgreSQL (SIGNALSTORE_TEST_POSTGRES_TLS_URL)"), .ownThread)
struct TLSTests {
    /// The TLS server's URL with its own schema, with `sslmode`, `sslrootcert` and the host
    /// replaced where given (`sslrootcert: ""` drops it).
    private func url(sslmode: String = "verify-full", sslrootcert: String? = nil, host: String? = nil) throws -> String {
        var components = URLComponents(string: try TestServer.freshTLSURL())!
        let caPath = components.queryItems!.first { $0.name == "sslrootcert" }!.value!
        let rootPath = sslrootcert ?? caPath
        components.queryItems = components.queryItems!.filter { $0.name != "sslmode" && $0.name != "sslrootcert" }
            + [URLQueryItem(name: "sslmode", value: sslmode)]
            + (rootPath.isEmpty ? [] : [URLQueryItem(name: "sslrootcert", value: rootPath)])
        if let host { components.host = host }
        return components.string!
    }

    private func sync(_ url: String, _ replica: Replica) throws -> (status: Int32, output: String, error: String) {
        let result = try runProgram(signalstore, ["sync", "--once", "--postgres", url, "--db", replica.path])
        #expect(!(result.output + result.error).contains(TestServer.password), "the password was printed")
        return result
    }

    private func expectRefusal(_ url: String, _ replica: Replica, saying expected: String) throws {
        let result = try sync(url, replica)
        #expect(result.status == 1, "exit \(result.status): \(result.error)")
        let errorLines = result.error.split(separator: "\n").filter { $0.hasPrefix("error:") }
        #expect(errorLines.count == 1 && errorLines[0].contains(expected), "\(result.error)")
    }

    @Test("verify-full with the server's CA as sslrootcert: a sqlite3 write on one replica reaches the other")
    func verifiedReplicasConverge() throws {
        let folder = TemporaryDirectory()
        let a = try Replica(folder, "a")
        let b = try Replica(folder, "b")
        let url = try url()
        try sqlite3(a.path, "INSERT INTO orders (id, purchase_num, status) VALUES (1, 7, 'over tls')")
        #expect(try sync(url, a).status == 0)
        let received = try sync(url, b)
        #expect(received.status == 0, "\(received.error)")
        #expect(try sqlite3(b.path, "SELECT id, purchase_num, status FROM orders") == "1|7|over tls\n")
    }

    @Test("prefer and require encrypt without checking the certificate; with sslrootcert, require and verify-ca check who signed it", arguments: [
        ("prefer", ""), ("require", ""), ("require", nil), ("verify-ca", nil),
    ] as [(String, String?)])
    func modesThatConnect(sslmode: String, sslrootcert: String?) throws {
        let folder = TemporaryDirectory()
        let replica = try Replica(folder, "a")
        // By IP address: the certificate names only localhost, which these modes do not compare.
        let result = try sync(try url(sslmode: sslmode, sslrootcert: sslrootcert, host: "127.0.0.1"), replica)
        #expect(result.status == 0, "\(result.error)")
    }

    @Test("certificates that do not check out, and a server that wants TLS, are refused in one line that says what to do")
    func refusals() throws {
        let folder = TemporaryDirectory()
        let replica = try Replica(folder, "a")
        try expectRefusal(try url(host: "127.0.0.1"), replica, saying: "is not issued for '127.0.0.1'; connect by a host name the certificate lists, or use sslmode=verify-ca")
        try expectRefusal(try url(sslrootcert: ""), replica, saying: "is not signed by an authority the system trusts; give the CA that signed it as sslrootcert=PATH")
        let otherCA = try makeCertificateAuthority(in: folder)
        try expectRefusal(try url(sslmode: "require", sslrootcert: otherCA), replica, saying: "is not signed by the CA in sslrootcert '\(otherCA)'")
        try expectRefusal(try url(sslmode: "disable", sslrootcert: ""), replica, saying: "accepts only TLS connections from this client, and the URL has sslmode=disable")
    }

    @Test("a missing or unreadable sslrootcert, and sslrootcert with sslmode=disable, are bad URLs")
    func badRootCertificates() throws {
        let folder = TemporaryDirectory()
        let replica = try Replica(folder, "a")
        let missing = folder.path("missing.pem")
        try expectRefusal(try url(sslrootcert: missing), replica, saying: "sslrootcert '\(missing)' does not exist")
        let notPEM = folder.path("notes.txt")
        try "not a certificate".write(toFile: notPEM, atomically: true, encoding: .utf8)
        try expectRefusal(try url(sslrootcert: notPEM), replica, saying: "sslrootcert '\(notPEM)' holds no PEM certificate")
        try expectRefusal(try url(sslmode: "disable"), replica, saying: "sslrootcert but sslmode=disable turns TLS off")
        #expect(throws: SyncError.self) { try PostgresURL("postgres://u:p@h/d?sslmode=verify-everything") }
    }

    /// A CA that signed nothing the server presents, made with `openssl`.
    private func makeCertificateAuthority(in folder: TemporaryDirectory) throws -> String {
        let path = folder.path("other-ca.pem")
        let result = try runProgram(URL(fileURLWithPath: "/usr/bin/openssl"), [
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1",
            "-subj", "/CN=Another CA", "-keyout", folder.path("other-ca.key"), "-out", path,
        ])
        #expect(result.status == 0, "\(result.error)")
        return path
    }
}

@Suite("Sync: PostgreSQL URLs", .ownThread)
struct PostgresURLTests {
    @Test("sslmode takes libpq's five modes; the redacted URL keeps sslrootcert and hides the password")
    func modesAndRedaction() throws {
        for mode in ["disable", "prefer", "require", "verify-ca", "verify-full"] {
            #expect(try PostgresURL("postgres://u:p@h/d?sslmode=\(mode)").tls.rawValue == mode)
        }
        let url = try PostgresURL("postgres://app:s3cret@db.example.com/app?sslmode=verify-full&sslrootcert=/etc/ssl/db-ca.pem")
        #expect(url.tls == .verifyFull)
        #expect(url.rootCertificatePath == "/etc/ssl/db-ca.pem")
        #expect(url.redacted == "postgres://app:***@db.example.com:5432/app?sslmode=verify-full&sslrootcert=/etc/ssl/db-ca.pem&schema=signalstore")
        #expect(try PostgresURL("postgres://app@db.example.com/app").tls == .prefer)
    }
}
#endif
